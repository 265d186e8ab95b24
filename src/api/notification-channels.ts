/**
 * A workspace's notification channels (docs/notifications.md): made (a webhook channel's secret in
 * that answer only), listed a page at a time, deleted, tested. Editors write, as for robots.
 */
import { MANAGEMENT } from '../contract/management';
import { invalidField } from '../core/http-errors';
import { channelStatus, type Notification } from '../domain/notifications';
import { newId } from '../domain/secrets';
import {
  createChannel,
  deleteChannel,
  testChannel,
  workspaceChannels,
  type ChannelsDeps,
} from '../notifications/channels';
import type { NotificationChannelDoc } from '../storage/notification-documents';
import { route, type ManagementDeps, type ManagementRoute } from './deps';

const channelsDeps = ({ models, config }: ManagementDeps): ChannelsDeps => ({
  models,
  settings: config.notifications,
  secretsKey: config.secretsKey,
  secretsKeys: config.secretsKeys,
});

/** A channel as the API shows it: never its secret. */
const channelView = (c: NotificationChannelDoc) => ({
  id: c._id,
  kind: c.kind,
  url: c.url ?? null,
  to: c.to ?? null,
  status: channelStatus(c.failuresInARow),
  failuresInARow: c.failuresInARow,
  lastError: c.lastError ?? null,
  lastFailedAt: c.lastFailedAt ?? null,
  lastSentAt: c.lastSentAt ?? null,
  createdAt: c.createdAt,
});

/** What a test says: an example issue, so a receiver sees the shape of the real ones. */
function testNotification(baseUrl: string, workspaceId: string): Notification {
  const now = new Date().toISOString();
  return {
    id: `msg_test_${newId()}`,
    type: 'test',
    issue: {
      id: 'iss_test',
      workspaceId,
      robotId: 'robot_test',
      robotName: 'A robot (test notification)',
      kind: 'refused',
      reason: 'signature',
      count: 1,
      firstSeen: now,
      lastSeen: now,
    },
    url: `${baseUrl}/`,
  };
}

export const NOTIFICATION_CHANNEL_ROUTES: ManagementRoute[] = [
  route(MANAGEMENT.createNotificationChannel, async ({ body, caller }, deps) => {
    const { channel, secret } = await createChannel(channelsDeps(deps), caller.workspaceId, body);
    return { ...channelView(channel), secret };
  }),
  route(MANAGEMENT.listNotificationChannels, async ({ caller, query }, { models }) => {
    const all = await workspaceChannels(models, caller.workspaceId);
    // The cursor is the page before's last channel; one deleted since is refused as any unknown cursor.
    const from = query.cursor === undefined ? 0 : all.findIndex((c) => c._id === query.cursor) + 1;
    if (from === 0 && query.cursor !== undefined) throw invalidField('cursor', 'not a channel of this workspace');
    const page = all.slice(from, from + query.limit);
    const more = from + query.limit < all.length;
    return { channels: page.map(channelView), nextCursor: more ? page[page.length - 1]._id : null };
  }),
  route(MANAGEMENT.deleteNotificationChannel, async ({ named: channel }, { models }) => {
    await deleteChannel(models, channel._id);
    return channelView(channel);
  }),
  route(MANAGEMENT.testNotificationChannel, async ({ named: channel, caller }, deps) =>
    testChannel(
      { ...channelsDeps(deps), counter: deps.metrics?.notifications },
      channel,
      testNotification(deps.config.baseUrl, caller.workspaceId),
    ),
  ),
];
