import {
  ApplicationFailure,
  ParentClosePolicy,
  continueAsNew,
  proxyActivities,
  startChild,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { runIdFor, runWorkflowId } from '../src/domain/ids';
import type { DeliveryInput, PreparedDelivery } from '../src/domain/types';
import { runWorkflow } from './run';

const { prepareDelivery } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** Runs started together; their start events stay far below Temporal's limits. */
export const RUN_START_BATCH = 500;
/** Runs started by one workflow run before it continues as new (history < 51,200 events, pending children < 2,000). */
export const RUNS_PER_CONTINUATION = 1000;

type Processed = Extract<PreparedDelivery, { outcome: 'processed' }>;
export interface FanOutProgress {
  prepared: Processed;
  nextRun: number;
}

/**
 * One accepted webhook delivery. Its workflow ID is derived from the dedup key, so Temporal
 * itself refuses a repeat. It parses the body in the app's format (an activity) and starts one
 * run per trigger data value: one for json, xml and text, one per row for csv.
 * A body that does not parse fails the workflow, which frees its ID for a later genuine delivery.
 */
export async function deliveryWorkflow(delivery: DeliveryInput, progress?: FanOutProgress): Promise<PreparedDelivery> {
  const prepared = progress?.prepared ?? (await prepareDelivery(delivery));
  if (prepared.outcome === 'failed') throw ApplicationFailure.nonRetryable(prepared.error, 'UnparsableBody');
  if (prepared.outcome === 'dropped') return prepared;

  const end = Math.min(prepared.runCount, (progress?.nextRun ?? 0) + RUNS_PER_CONTINUATION);
  for (let next = progress?.nextRun ?? 0; next < end; next += RUN_START_BATCH) {
    const batch = Array.from({ length: Math.min(RUN_START_BATCH, end - next) }, (_, i) => next + i);
    await Promise.all(batch.map((index) => startRun(delivery.deliveryId, index, prepared.stepCount)));
  }
  if (end < prepared.runCount) {
    await continueAsNew<typeof deliveryWorkflow>({ ...delivery, body: { kind: 'consumed' } }, { prepared, nextRun: end });
  }
  return prepared;
}

function startRun(deliveryId: string, index: number, stepCount: number) {
  const runId = runIdFor(deliveryId, index);
  return startChild(runWorkflow, {
    workflowId: runWorkflowId(runId),
    args: [{ runId, deliveryId, stepCount }],
    // Runs go on by themselves: the delivery is done once they have started.
    parentClosePolicy: ParentClosePolicy.ABANDON,
  });
}
