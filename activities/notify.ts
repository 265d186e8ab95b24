/**
 * The notify workflow's activities (workflows/notify.ts): a thin facade over src/notifications/notify.ts,
 * each turning its Temporal context (the workflow's ID, the attempt) into plain arguments.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { NotificationCounter } from '../src/core/metrics';
import type { NotificationSettings } from '../src/core/config';
import type { Notification } from '../src/domain/notifications';
import type { Models } from '../src/storage/models';
import { AttemptFailed, notificationTargets, sendNotification } from '../src/notifications/notify';

/** What sending needs of the worker: its settings and every key a channel's secret may be sealed with. */
export interface NotifyActivityDeps {
  settings: NotificationSettings;
  secretsKeys: readonly Buffer[];
}

export function notifyActivities(models: Models, counter: NotificationCounter, notify: NotifyActivityDeps | undefined) {
  return {
    /** The workspace's channels and the robot's name (src/notifications/notify.ts). */
    async notificationTargets(input: { workspaceId: string; robotId: string }) {
      return notificationTargets(models, input);
    },

    /**
     * One attempt at a notification to a channel: a failure with attempts left is thrown (Temporal
     * retries it with the workflow's backoff); the last attempt's failure is returned, recorded.
     */
    async sendNotification(input: {
      channelId: string;
      notification: Omit<Notification, 'id'>;
      attempts: number;
    }): Promise<'delivered' | 'failed' | 'skipped'> {
      if (!notify) throw ApplicationFailure.nonRetryable('this worker was given no notification settings');
      const { info } = Context.current();
      const workflowId = info.workflowExecution?.workflowId ?? info.activityId;
      try {
        return await sendNotification({ models, counter, ...notify }, { ...input, workflowId, attempt: info.attempt });
      } catch (err) {
        if (err instanceof AttemptFailed) throw ApplicationFailure.retryable(err.message, 'NotificationAttemptFailed');
        throw err;
      }
    },
  };
}
