/**
 * Identifiers and URL formats. A robot's trigger, put to work, gets the identifier
 * `<kind>:<uuid>` (`custom:<uuid>` for a custom app, `stripe:<uuid>` for the payment provider)
 * and a token; its webhook URL, shown on the trigger step's card, is
 * `{base_url}/api/webhooks/<trigger_identifier>/<token>`.
 *
 * Workflow IDs and run ids (a delivery's workflow ID is derived from its dedup key: ./dedup):
 * readable for operators in the Temporal Web UI, deterministic so that a retried step never makes
 * a second workflow or a second run. Pure: workflows import it.
 */

/** The receiver's route: the path of every webhook URL. */
export const WEBHOOK_PATH = '/api/webhooks/:identifier/:token';

/** A trigger identifier as made when its robot is first put to work. */
export function triggerIdentifier(kind: 'custom' | 'stripe', uuid: string): string {
  return `${kind}:${uuid}`;
}

/** Whether a path segment has the form of a trigger identifier (anything else is a 404 without a read). */
export function isTriggerIdentifier(value: string): boolean {
  return /^(custom|stripe):[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
}

/** The webhook URL of a trigger (null until its robot is first put to work). */
export function webhookUrl(baseUrl: string, identifier: string | null, token: string | null): string | null {
  return identifier && token ? `${baseUrl}/api/webhooks/${identifier}/${token}` : null;
}

export const DELIVERY_WORKFLOW_ID_PREFIX = 'delivery:';

/**
 * The delivery workflow's ID: one per trigger and dedup key (./dedup), so the engine refuses a
 * repeat. The workflow checks it is running under it (workflows/refuse-unsealed.ts).
 */
export function deliveryWorkflowId(triggerIdentifier: string, key: string): string {
  return `${DELIVERY_WORKFLOW_ID_PREFIX}${triggerIdentifier}:${key}`;
}

export function runWorkflowId(runId: string): string {
  return `run:${runId}`;
}

/**
 * A delivery that makes a single run executes it in the delivery workflow itself (one workflow
 * instead of two); each run of a larger CSV is a child workflow `run:<runId>`.
 */
export function runsInDeliveryWorkflow(runCount: number): boolean {
  return runCount === 1;
}

/** The workflow a run executes in, given its delivery's workflow and run count. */
export function workflowIdOfRun(
  runId: string,
  delivery: { workflowId: string | null; runCount: number },
): string | null {
  return runsInDeliveryWorkflow(delivery.runCount) ? delivery.workflowId : runWorkflowId(runId);
}

/** Run ids sort in row order within a delivery (index zero-padded). */
export function runIdFor(deliveryId: string, index: number): string {
  return `${deliveryId}-${String(index).padStart(8, '0')}`;
}

/** The delivery and row of a run id made by runIdFor. */
export function runOfId(runId: string): { deliveryId: string; index: number } {
  const dash = runId.lastIndexOf('-');
  return { deliveryId: runId.slice(0, dash), index: Number(runId.slice(dash + 1)) };
}

/** The workflow that notifies of one opening of an issue (workflows/notify.ts): one per issue and `notifiedAt`. */
export const notifyWorkflowId = (issueId: string, notifiedAtMs: number) => `notify:${issueId}:${notifiedAtMs}`;
