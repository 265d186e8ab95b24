/**
 * Notifications (docs/notifications.md): what a channel is sent when an issue of its workspace
 * opens or reopens, or when someone tests it, in each channel's format, and the Standard Webhooks
 * signature a webhook channel's receiver verifies. Pure: src/notifications/ sends, workflows/notify.ts
 * orders the sending (importing only this file's types: it uses node:crypto).
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { CHANNEL_FAILING_AFTER } from './limits/notifications';

export const CHANNEL_KINDS = ['webhook', 'slack', 'email'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** What a notification says happened: an issue opened, reopened, or a person's test of the channel. */
export type NotificationType = 'issue.opened' | 'issue.reopened' | 'test';

/** A channel as its page shows it: `failing` once CHANNEL_FAILING_AFTER notifications in a row failed. */
export type ChannelStatus = 'ok' | 'failing';
export const channelStatus = (failuresInARow: number): ChannelStatus =>
  failuresInARow >= CHANNEL_FAILING_AFTER ? 'failing' : 'ok';

/** What an issue is, as notifications tell it (times as ISO text: it travels through Temporal). */
export interface IssueSummary {
  id: string;
  workspaceId: string;
  robotId: string;
  robotName: string | null;
  kind: string;
  reason: string;
  count: number;
  firstSeen: string;
  lastSeen: string;
}

/** One notification, the same on every attempt: its id is the `webhook-id` a receiver may dedupe by. */
export interface Notification {
  id: string;
  type: NotificationType;
  issue: IssueSummary;
  /** The robot's page on the dashboard. */
  url: string;
}

/** The JSON body a webhook channel is sent (docs/notifications.md). */
export function webhookBody(n: Notification): string {
  const { workspaceId: _workspace, ...issue } = n.issue;
  return JSON.stringify({ type: n.type, issue: { ...issue, url: n.url } });
}

/** The sentence every channel says, in words: "Robot "Orders": 3 deliveries refused (signature) since …". */
export function notificationLine(n: Notification): string {
  const i = n.issue;
  const robot = i.robotName ? `Robot "${i.robotName}"` : `Robot ${i.robotId}`;
  const what = `${i.kind} (${i.reason}), ${i.count} time${i.count === 1 ? '' : 's'} since ${i.firstSeen}`;
  const head = n.type === 'test' ? 'Test notification. ' : n.type === 'issue.reopened' ? 'Issue reopened: ' : 'Issue: ';
  return `${head}${robot}: ${what}`;
}

/** A Slack incoming webhook's message (its `text` is what notifications and old clients show). */
export function slackBody(n: Notification): string {
  const text = `${notificationLine(n)} <${n.url}|Open the robot>`;
  return JSON.stringify({ text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] });
}

/** An email's subject and text. */
export function emailContent(n: Notification): { subject: string; text: string } {
  const i = n.issue;
  const subject = `${n.type === 'test' ? '[test] ' : ''}${i.robotName ?? i.robotId}: ${i.kind} (${i.reason})`;
  const text = [notificationLine(n), '', `Last seen: ${i.lastSeen}`, `Issue: ${i.id}`, `Robot: ${n.url}`].join('\n');
  return { subject, text };
}

/** A webhook channel's signing secret, shown once: `whsec_` and 24 random bytes in base64. */
export function newChannelSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * The Standard Webhooks signature of `body` sent as message `id` at `timestamp` (seconds):
 * `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under the secret's bytes (the base64
 * after `whsec_`). Receivers verify it with the `standardwebhooks` package.
 */
export function standardSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The headers that sign a webhook channel's request. */
export function signedHeaders(secret: string, id: string, body: string, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignature(secret, id, timestamp, body),
  };
}

/**
 * The id of one notification to one channel, kept across its retries (a receiver dedupes by it):
 * `msg_` and a digest of the workflow that sends it and the channel.
 */
export function notificationId(workflowId: string, channelId: string): string {
  return `msg_${createHash('sha256').update(`${workflowId}\n${channelId}`).digest('base64url').slice(0, 24)}`;
}

/** How long a notification is retried per channel (NOTIFY_ATTEMPTS, NOTIFY_BACKOFF_MS: docs/configuration.md). */
export interface NotifyRetry {
  attempts: number;
  backoffMs: number;
}

/** The notify workflow's input (workflows/notify.ts). */
export interface NotifyInput {
  type: Exclude<NotificationType, 'test'>;
  issue: Omit<IssueSummary, 'robotName'>;
  /** When the issue's counter decided to notify (its `notifiedAt`): with its id, the workflow's ID. */
  notifiedAt: string;
  /** BASE_URL: the robot's page on the dashboard is `<baseUrl>/robots/<robotId>`. */
  baseUrl: string;
  retry: NotifyRetry;
}
