/**
 * What the notify workflow's activities do (workflows/notify.ts, activities/notify.ts): find a
 * workspace's channels and its robot's name, then send one notification to one channel, each
 * attempt's outcome recorded on the channel (delivered: its failures in a row back to 0; the last
 * attempt failed: one more in a row, `failing` at CHANNEL_FAILING_AFTER).
 */
import type { NotificationCounter } from '../core/metrics';
import { notificationId, type Notification } from '../domain/notifications';
import { byId } from '../storage/by-id';
import type { RobotDoc } from '../storage/documents';
import type { Models } from '../storage/models';
import type { NotificationChannelDoc } from '../storage/notification-documents';
import { recordAttempt, workspaceChannels } from './channels';
import { sendToChannel, type SendDeps } from './senders';

export interface NotifyDeps extends SendDeps {
  models: Models;
  counter: NotificationCounter;
}

/** Who is notified of an issue of `robotId`: the workspace's channels, and what the robot is called. */
export async function notificationTargets(
  models: Models,
  { workspaceId, robotId }: { workspaceId: string; robotId: string },
): Promise<{ channelIds: string[]; robotName: string | null }> {
  const [channels, robot] = await Promise.all([
    workspaceChannels(models, workspaceId),
    byId<RobotDoc>(models.Robot, robotId, { name: 1 }),
  ]);
  return { channelIds: channels.map((c) => c._id), robotName: robot?.name ?? null };
}

/** One attempt at one notification to one channel. */
export interface NotificationAttempt {
  channelId: string;
  notification: Omit<Notification, 'id'>;
  /** The workflow sending it: with the channel, the notification's id, the same on every attempt. */
  workflowId: string;
  attempt: number;
  attempts: number;
}

/** Why an attempt that failed with attempts left: the activity throws it to be retried. */
export class AttemptFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AttemptFailed';
  }
}

/**
 * Sends it: `delivered`; `failed` once the last attempt failed; `skipped` for a channel deleted
 * meanwhile; throws AttemptFailed while attempts are left.
 */
export async function sendNotification(
  deps: NotifyDeps,
  a: NotificationAttempt,
): Promise<'delivered' | 'failed' | 'skipped'> {
  const channel = await byId<NotificationChannelDoc>(deps.models.NotificationChannel, a.channelId);
  if (!channel) return 'skipped';
  const n: Notification = { ...a.notification, id: notificationId(a.workflowId, channel._id) };
  const outcome = await sendToChannel(channel, n, deps);
  const last = a.attempt >= a.attempts;
  await recordAttempt(deps.models, channel._id, outcome, { last });
  if (outcome.delivered || last) {
    const result = outcome.delivered ? 'delivered' : 'failed';
    deps.counter.inc({ channel_kind: channel.kind, outcome: result });
    return result;
  }
  throw new AttemptFailed(outcome.error);
}
