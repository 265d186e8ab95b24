import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { notifyWorkflowId } from '../src/domain/ids';
import { NOTIFY_BACKOFF_MAX_MS } from '../src/domain/limits';
import type { NotifyInput } from '../src/domain/notifications';
import { refuseCopied, refuseUnsealed } from './refuse-unsealed';

const { notificationTargets } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** How each channel's notification ended (a channel deleted meanwhile: `skipped`). */
export type NotifyOutcomes = Record<string, 'delivered' | 'failed' | 'skipped' | 'error'>;

/**
 * The notification of one opening (or reopening) of an issue (docs/notifications.md), started as
 * `notify:<issueId>:<notifiedAt ms>` by the counter that opened it (src/notifications/start.ts):
 * the workspace's channels, then each channel at once, each with its own attempts (NOTIFY_ATTEMPTS,
 * the first wait NOTIFY_BACKOFF_MS, doubling up to NOTIFY_BACKOFF_MAX_MS), each attempt's outcome
 * recorded on its channel by the activity. A channel that fails every attempt does not hold up the others.
 */
export async function notifyIssue(input: NotifyInput): Promise<NotifyOutcomes> {
  refuseUnsealed('notify', input);
  refuseCopied('notify', { workflowId: notifyWorkflowId(input.issue.id, Date.parse(input.notifiedAt)), parent: false });
  const { issue, retry } = input;

  const { channelIds, robotName } = await notificationTargets({
    workspaceId: issue.workspaceId,
    robotId: issue.robotId,
  });
  const notification = {
    type: input.type,
    issue: { ...issue, robotName },
    url: `${input.baseUrl}/robots/${encodeURIComponent(issue.robotId)}`,
  };

  const { sendNotification } = proxyActivities<Activities>({
    startToCloseTimeout: '1 minute',
    retry: {
      initialInterval: retry.backoffMs,
      backoffCoefficient: 2,
      maximumInterval: NOTIFY_BACKOFF_MAX_MS,
      maximumAttempts: retry.attempts,
    },
  });
  const sent = await Promise.allSettled(
    channelIds.map((channelId) => sendNotification({ channelId, notification, attempts: retry.attempts })),
  );
  return Object.fromEntries(
    channelIds.map((id, i) => {
      const s = sent[i];
      return [id, s.status === 'fulfilled' ? s.value : 'error'];
    }),
  );
}
