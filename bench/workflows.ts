/**
 * The benchmark's own workflows, run by a worker inside the bench process: the engine's ceiling
 * for a CSV fan-out. `benchFanOut` starts `benchChild` children exactly as the delivery workflow
 * starts runs (same batch size, same continue-as-new, ABANDON), and the children do nothing. And
 * the floor of a one-run delivery (`benchDelivery`): started, one local activity, completed.
 */
import { ParentClosePolicy, continueAsNew, proxyLocalActivities, startChild } from '@temporalio/workflow';
import { RUNS_PER_CONTINUATION, RUN_START_BATCH } from '../src/domain/limits';
import type * as floorActivities from './floor-activities';

const { benchNothing } = proxyLocalActivities<typeof floorActivities>({ startToCloseTimeout: '1 minute' });

export interface BenchFanOut {
  tag: string;
  children: number;
  next: number;
}

export async function benchFanOut(fanOut: BenchFanOut): Promise<void> {
  const end = Math.min(fanOut.children, fanOut.next + RUNS_PER_CONTINUATION);
  for (let next = fanOut.next; next < end; next += RUN_START_BATCH) {
    const batch = Array.from({ length: Math.min(RUN_START_BATCH, end - next) }, (_, i) => next + i);
    await Promise.all(
      batch.map((i) =>
        startChild(benchChild, {
          workflowId: `bench-child:${fanOut.tag}:${i}`,
          parentClosePolicy: ParentClosePolicy.ABANDON,
        }),
      ),
    );
  }
  if (end < fanOut.children) await continueAsNew<typeof benchFanOut>({ ...fanOut, next: end });
}

export async function benchChild(): Promise<void> {
  // Nothing: the engine's own cost of a child run.
}

/** A delivery that does nothing: one local activity (./floor-activities.ts), then complete. */
export async function benchDelivery(): Promise<void> {
  await benchNothing();
}
