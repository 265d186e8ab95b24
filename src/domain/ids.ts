/**
 * Workflow IDs and run ids. Readable for operators in the Temporal Web UI, deterministic so
 * that a retried step never makes a second workflow or a second run. Pure: workflows import it.
 */

export function deliveryWorkflowId(triggerIdentifier: string, key: string): string {
  return `delivery:${triggerIdentifier}:${key}`;
}

export function runWorkflowId(runId: string): string {
  return `run:${runId}`;
}

/** Run ids sort in row order within a delivery (index zero-padded). */
export function runIdFor(deliveryId: string, index: number): string {
  return `${deliveryId}-${String(index).padStart(8, '0')}`;
}
