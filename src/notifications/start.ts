/**
 * An issue's notification started (docs/notifications.md): the notify workflow (workflows/notify.ts,
 * started by its name, on the worker's task queue) with ID `notify:<issueId>:<notifiedAt ms>`, so a
 * second start for the same opening is the same workflow and nothing more is sent. Called by an
 * issue counter's `onOpened` (src/issues/counter.ts), in the receiver and the worker alike.
 */
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Config } from '../core/config';
import { notifyWorkflowId } from '../domain/ids';
import type { NotifyInput } from '../domain/notifications';

/** What a start needs: a Temporal client (the process's, its payloads sealed), and the settings. */
export interface IssueNotifications {
  temporal: Client;
  config: Pick<Config, 'baseUrl' | 'notifications'> & { temporal: Pick<Config['temporal'], 'taskQueue'> };
}

/** What a start is told of the issue (src/storage/issue-documents.ts `IssueDoc` is one). */
export interface OpenedIssue {
  _id: string;
  workspaceId: string;
  robotId: string;
  kind: string;
  reason: string;
  count: number;
  firstSeen: Date;
  lastSeen: Date;
  notifiedAt?: Date;
}

export async function startIssueNotification(
  { temporal, config }: IssueNotifications,
  issue: OpenedIssue,
  how: 'opened' | 'reopened',
): Promise<void> {
  const notifiedAt = new Date(issue.notifiedAt ?? issue.lastSeen);
  const input: NotifyInput = {
    type: how === 'opened' ? 'issue.opened' : 'issue.reopened',
    issue: {
      id: issue._id,
      workspaceId: issue.workspaceId,
      robotId: issue.robotId,
      kind: issue.kind,
      reason: issue.reason,
      count: issue.count,
      firstSeen: new Date(issue.firstSeen).toISOString(),
      lastSeen: new Date(issue.lastSeen).toISOString(),
    },
    notifiedAt: notifiedAt.toISOString(),
    baseUrl: config.baseUrl,
    retry: config.notifications.retry,
  };
  try {
    await temporal.workflow.start('notifyIssue', {
      taskQueue: config.temporal.taskQueue,
      workflowId: notifyWorkflowId(issue._id, notifiedAt.getTime()),
      // Closed or not, an opening is notified once (within the namespace's retention).
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      args: [input],
    });
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return; // this opening is being notified
    throw err;
  }
}

/** `onOpened` for an issue counter: starts the opening's notification. */
export const issueNotifier =
  (to: IssueNotifications) =>
  (issue: OpenedIssue, how: 'opened' | 'reopened'): Promise<void> =>
    startIssueNotification(to, issue, how);
