import {
  ApplicationFailure,
  ParentClosePolicy,
  continueAsNew,
  patched,
  proxyActivities,
  proxyLocalActivities,
  startChild,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { runWorkflowId } from '../src/domain/ids';
import type { DeliveryInput, DeliveryResult, RunInput, RunSeed } from '../src/domain/types';
import { runWorkflow } from './run';

const activities = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});
/** A body that travelled inline (INLINE_BODY_BYTES, 128 KiB by default) is prepared in a local activity: one round trip less. */
const local = proxyLocalActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** Runs started together. */
export const RUN_START_BATCH = 500;
/**
 * Runs started by one workflow run before it continues as new: its history stays far below
 * 51,200 events and it never has 2,000 children pending. It also continues once the trigger
 * data it has passed to children reaches CONTINUATION_BYTES.
 */
export const RUNS_PER_CONTINUATION = 1000;
export const CONTINUATION_BYTES = 4 * 1024 * 1024;

/**
 * Workflow versions (Temporal's `patched()`): a change that would make an open workflow of an
 * older worker replay differently is taken only by workflows that start after it. Each patch is
 * removed (with `deprecatePatch`, then not at all) once no workflow of the older code is open.
 * test/replay.test.ts replays histories of every earlier version.
 */
/** 0.2: a failed or dropped delivery's stored body is discarded too (it was kept forever). */
const PATCH_DISCARD_UNUSED_BODY = 'discard-body-of-failed-and-dropped-deliveries';

/** Where a fan-out stands, carried across continue-as-new. */
export interface FanOut {
  runCount: number;
  stepCount: number;
  nextRun: number;
}

/**
 * One accepted webhook delivery. Its workflow ID is derived from the dedup key, so Temporal
 * itself refuses a repeat. It parses the body in the app's format and stores the runs (an
 * activity). A single run (json, xml, text, a one-row csv) executes right here; a csv with
 * more rows fans out to one child run workflow per row. A body that does not parse fails the
 * workflow, which frees its ID for a later genuine delivery.
 */
export async function deliveryWorkflow(delivery: DeliveryInput, fanOut?: FanOut): Promise<DeliveryResult> {
  let seeds: RunSeed[] = [];
  if (!fanOut) {
    const prepare = delivery.body.kind === 'inline' ? local.prepareDelivery : activities.prepareDelivery;
    const prepared = await prepare(delivery);
    if (prepared.outcome !== 'processed' && patched(PATCH_DISCARD_UNUSED_BODY)) await discardStoredBody(delivery);
    if (prepared.outcome === 'failed') throw ApplicationFailure.nonRetryable(prepared.error, 'UnparsableBody');
    if (prepared.outcome === 'dropped') return prepared;
    const [only] = prepared.firstRuns;
    if (prepared.runCount === 1 && only) {
      // One workflow per delivery instead of a parent and a child (README, Benchmark).
      const runStatus = await runWorkflow(runInput(delivery, only, prepared.stepCount));
      await discardStoredBody(delivery);
      return { outcome: 'processed', runCount: 1, runStatus };
    }
    fanOut = { runCount: prepared.runCount, stepCount: prepared.stepCount, nextRun: 0 };
    seeds = prepared.firstRuns;
  }

  const end = Math.min(fanOut.runCount, fanOut.nextRun + RUNS_PER_CONTINUATION);
  let next = fanOut.nextRun;
  let bytes = 0;
  while (next < end && bytes < CONTINUATION_BYTES) {
    if (seeds.length === 0) seeds = await activities.nextRuns({ delivery, from: next, to: Math.min(end, next + RUN_START_BATCH) });
    const batch = seeds.splice(0, Math.min(RUN_START_BATCH, end - next));
    await Promise.all(batch.map((seed) => startRun(delivery, seed, fanOut.stepCount)));
    next += batch.length;
    bytes += batch.reduce((sum, seed) => sum + seed.bytes, 0);
  }
  if (next < fanOut.runCount) return continueAsNew<typeof deliveryWorkflow>(delivery, { ...fanOut, nextRun: next });

  await discardStoredBody(delivery);
  return { outcome: 'processed', runCount: fanOut.runCount };
}

async function discardStoredBody(delivery: DeliveryInput): Promise<void> {
  if (delivery.body.kind === 'stored') await activities.discardBody({ deliveryId: delivery.deliveryId, chunks: delivery.body.chunks });
}

function runInput(delivery: DeliveryInput, seed: RunSeed, stepCount: number): RunInput {
  return { runId: seed.runId, robotId: delivery.robotId, trigger: seed.trigger, stepCount };
}

function startRun(delivery: DeliveryInput, seed: RunSeed, stepCount: number) {
  return startChild(runWorkflow, {
    workflowId: runWorkflowId(seed.runId),
    args: [runInput(delivery, seed, stepCount)],
    // Runs go on by themselves: the delivery is done once they have started.
    parentClosePolicy: ParentClosePolicy.ABANDON,
  });
}
