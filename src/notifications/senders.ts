/**
 * A notification sent to one channel in its kind's way (docs/notifications.md): a webhook channel
 * gets the JSON signed the Standard Webhooks way with its secret, a Slack channel a message of an
 * incoming webhook, both through ./outbound.ts; an email channel a mail through SMTP_URL.
 */
import { createTransport, type Transporter } from 'nodemailer';
import type { NotificationSettings } from '../core/config';
import { NOTIFY_TIMEOUT_MS } from '../domain/limits';
import { emailContent, signedHeaders, slackBody, webhookBody, type Notification } from '../domain/notifications';
import { decryptSecret } from '../domain/secrets';
import type { NotificationChannelDoc } from '../storage/notification-documents';
import { postJson, type OutboundOutcome } from './outbound';

/** What sending needs: the settings, and every key a channel's secret may be sealed with (SECRETS_KEYS). */
export interface SendDeps {
  settings: NotificationSettings;
  secretsKeys: readonly Buffer[];
}

/** One SMTP transport per SMTP_URL, kept: it pools nothing, but parsing its URL once is enough. */
const transports = new Map<string, Transporter>();
function transportFor(smtpUrl: string): Transporter {
  let transport = transports.get(smtpUrl);
  if (!transport) {
    transport = createTransport({
      url: smtpUrl,
      connectionTimeout: NOTIFY_TIMEOUT_MS,
      greetingTimeout: NOTIFY_TIMEOUT_MS,
      socketTimeout: NOTIFY_TIMEOUT_MS,
    });
    transports.set(smtpUrl, transport);
  }
  return transport;
}

async function sendEmail(to: string, n: Notification, settings: NotificationSettings): Promise<OutboundOutcome> {
  if (!settings.smtpUrl) return { delivered: false, status: null, error: 'SMTP_URL is not set' };
  const { subject, text } = emailContent(n);
  try {
    await transportFor(settings.smtpUrl).sendMail({
      from: settings.smtpFrom,
      to,
      subject,
      text,
      headers: { 'X-Notification-Id': n.id },
    });
    return { delivered: true, status: 250 };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // SMTP's own words; the server's address and credentials are not in them.
    return { delivered: false, status: null, error: message.replace(/\s+/g, ' ') };
  }
}

/** Sends `n` to `channel`; the outcome says how it went (never throws for what the far end did). */
export async function sendToChannel(
  channel: NotificationChannelDoc,
  n: Notification,
  { settings, secretsKeys }: SendDeps,
): Promise<OutboundOutcome> {
  const rules = { allowPrivateAddresses: settings.allowPrivateAddresses };
  switch (channel.kind) {
    case 'webhook': {
      const body = webhookBody(n);
      const secret = decryptSecret(secretsKeys, channel.secretSealed ?? '');
      return postJson(channel.url ?? '', body, signedHeaders(secret, n.id, body, new Date()), rules);
    }
    case 'slack':
      return postJson(channel.url ?? '', slackBody(n), {}, rules);
    case 'email':
      return sendEmail(channel.to ?? '', n, settings);
  }
}
