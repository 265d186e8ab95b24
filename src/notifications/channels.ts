/**
 * A workspace's notification channels (docs/notifications.md): made (a URL checked against the
 * outbound rules then, and again at every send; a webhook channel's secret made, sealed as apps'
 * secrets are, and shown once), listed, deleted, tested, and how each notification to them went.
 */
import { HttpError, invalidField, workspaceFull } from '../core/http-errors';
import type { NotificationCounter } from '../core/metrics';
import { CHANNEL_ERROR_CHARS, CHANNELS_PER_WORKSPACE } from '../domain/limits';
import { newChannelSecret, type Notification } from '../domain/notifications';
import { encryptSecret, newId } from '../domain/secrets';
import type { Models } from '../storage/models';
import type { NotificationChannelDoc } from '../storage/notification-documents';
import { UrlRefused, vetUrl, type OutboundOutcome } from './outbound';
import { sendToChannel, type SendDeps } from './senders';

/** What a channel is made from (src/contract/notification-requests.ts). */
export type ChannelSpec = { kind: 'webhook' | 'slack'; url: string } | { kind: 'email'; to: string };

export interface ChannelsDeps extends SendDeps {
  models: Models;
  /** SECRETS_KEY: a webhook channel's secret is sealed with it. */
  secretsKey: Buffer;
}

/** A workspace's channels, oldest first (a scan of a small collection: docs/storage.md). */
export async function workspaceChannels(models: Models, workspaceId: string): Promise<NotificationChannelDoc[]> {
  const channels = await models.NotificationChannel.find({ workspaceId }).lean<NotificationChannelDoc[]>();
  return channels.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a._id.localeCompare(b._id));
}

/**
 * A new channel and, for a webhook channel, its secret (shown this once). Refused 400 naming the
 * field: a URL the outbound rules refuse now, an email channel with no SMTP_URL; 409 past
 * CHANNELS_PER_WORKSPACE.
 */
export async function createChannel(
  deps: ChannelsDeps,
  workspaceId: string,
  spec: ChannelSpec,
): Promise<{ channel: NotificationChannelDoc; secret: string | null }> {
  const held = await deps.models.NotificationChannel.countDocuments({ workspaceId });
  if (held >= CHANNELS_PER_WORKSPACE) throw workspaceFull('CHANNELS_PER_WORKSPACE', held, 'notification channels');
  if (spec.kind === 'email' && !deps.settings.smtpUrl)
    throw invalidField('kind', 'email channels need SMTP_URL set on the service (docs/configuration.md)');
  if (spec.kind !== 'email')
    try {
      await vetUrl(spec.url, { allowPrivateAddresses: deps.settings.allowPrivateAddresses });
    } catch (err) {
      if (err instanceof UrlRefused) throw invalidField('url', err.message);
      throw err;
    }
  const secret = spec.kind === 'webhook' ? newChannelSecret() : null;
  const channel: NotificationChannelDoc = {
    _id: `nch_${newId()}`,
    workspaceId,
    ...spec,
    ...(secret ? { secretSealed: encryptSecret(deps.secretsKey, secret) } : {}),
    createdAt: new Date(),
    failuresInARow: 0,
  };
  await deps.models.NotificationChannel.create(channel);
  return { channel, secret };
}

export async function deleteChannel(models: Models, channelId: string): Promise<void> {
  await models.NotificationChannel.deleteOne({ _id: channelId });
}

/** How one attempt went, on its channel: `last` when no attempt is left (a failure then counts in a row). */
export async function recordAttempt(
  models: Models,
  channelId: string,
  outcome: OutboundOutcome,
  { last }: { last: boolean },
): Promise<void> {
  const now = new Date();
  if (outcome.delivered) {
    await models.NotificationChannel.updateOne({ _id: channelId }, { $set: { failuresInARow: 0, lastSentAt: now } });
    return;
  }
  const failed = { lastError: outcome.error.slice(0, CHANNEL_ERROR_CHARS), lastFailedAt: now };
  // FerretDB v1 makes $inc a read and a write: two notifications failing at once may count one.
  await models.NotificationChannel.updateOne(
    { _id: channelId },
    last ? { $set: failed, $inc: { failuresInARow: 1 } } : { $set: failed },
  );
}

/**
 * A test notification, sent now from the process that was asked: 200 `{ delivered, status }`, or
 * 502 with why not. Its outcome is on the channel as one attempt that has others after it (a
 * failed test is the channel's `lastError`, not a notification failed in a row).
 */
export async function testChannel(
  deps: ChannelsDeps & { counter?: NotificationCounter },
  channel: NotificationChannelDoc,
  n: Notification,
): Promise<{ delivered: true; status: number }> {
  const outcome = await sendToChannel(channel, n, deps);
  deps.counter?.inc({ channel_kind: channel.kind, outcome: outcome.delivered ? 'delivered' : 'failed' });
  await recordAttempt(deps.models, channel._id, outcome, { last: false });
  if (!outcome.delivered) throw new HttpError(502, `not delivered: ${outcome.error}`, { expose: true, expected: true });
  return { delivered: true, status: outcome.status };
}
