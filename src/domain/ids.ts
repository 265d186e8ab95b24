/**
 * Workflow IDs and run ids (a delivery's workflow ID is derived from its dedup key: ./dedup). Readable for operators in the Temporal Web UI, deterministic so
 * that a retried step never makes a second workflow or a second run. Pure: workflows import it.
 */

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
