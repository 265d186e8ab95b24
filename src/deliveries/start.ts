/**
 * Starting a delivery's workflow, the same way for a request the receiver took and for a replay:
 * its ID comes from the dedup key (src/domain/dedup.ts), so the engine refuses a repeat; it is
 * searchable by robot and trigger, and a delivery held for a paused robot by `DeliveryOutcome="held"`.
 *
 * A body stored before the start (over INLINE_BODY_BYTES) is discarded when the start is refused as
 * a repeat, and noted for the body sweep when the start failed without a clear answer
 * (src/deliveries/body-sweep.ts): it may have started after all.
 */
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Config } from '../core/config';
import { DEDUP_WINDOW_MS, DELIVERY_ID_REUSE_POLICY } from '../domain/dedup';
import { deliveryStartAttributes } from '../domain/search-attributes';
import type { DeliveryInput } from '../domain/types';
import { noteUnconfirmedBody } from './body-sweep';
import { deliveryWorkflow, type DeliveryMemo } from './contract';
import type { Logger } from '../core/log';
import { bodyBlobId, discardBlob } from '../storage/blobs';
import type { Models } from '../storage/models';
import type { RobotDoc } from '../storage/documents';
import { takesDeliveries } from '../domain/robot-lifecycle';
import { DEFAULT_WORKSPACE } from '../domain/workspaces';
import { fairShares } from './fair-shares';

/**
 * Starts the delivery's workflow; throws WorkflowExecutionAlreadyStartedError for a repeat. The
 * receiver's client gives the start TEMPORAL_START_TIMEOUT_MS (receiverDeadlines, src/temporal/client.ts).
 */
async function startDeliveryWorkflow(
  temporal: Client,
  config: Config,
  input: DeliveryInput,
  workflowId: string,
  /** ALLOW_DUPLICATE only to start again after a closed original's window has passed. */
  reuse: typeof DELIVERY_ID_REUSE_POLICY | 'ALLOW_DUPLICATE' = DELIVERY_ID_REUSE_POLICY,
): Promise<void> {
  const what = input.replayOf ? `Replay of delivery ${input.replayOf}` : input.test ? 'Test delivery' : 'Delivery';
  await temporal.workflow.start(deliveryWorkflow, {
    taskQueue: config.temporal.taskQueue,
    workflowId,
    args: [input],
    memo: { deliveryId: input.deliveryId, receivedAt: input.receivedAt } satisfies DeliveryMemo,
    typedSearchAttributes: deliveryStartAttributes(input),
    staticSummary: `${what} for robot ${JSON.stringify(input.robotName)} (${input.size} bytes)`,
    workflowIdReusePolicy: reuse,
    // Its URL's tasks take turns with every other URL's, weighed so that each workspace has about one
    // share however many of its URLs are busy (./fair-shares.ts); its activities and its runs inherit both.
    priority: {
      fairnessKey: input.triggerIdentifier,
      fairnessWeight: fairShares.weightOf(input.workspaceId ?? DEFAULT_WORKSPACE, input.triggerIdentifier),
    },
  });
}

/** Why a delivery asked for through the management API (a replay, a test) cannot be made: the API answers 409. */
export class DeliveryRefused extends Error {
  override name = 'DeliveryRefused';
}

/** Refuses a delivery for a robot that takes none (stopped, never put to work, or gone). */
export function refuseUnlessTakingDeliveries(robot: RobotDoc | null): asserts robot is RobotDoc {
  if (!robot || !takesDeliveries(robot.state))
    throw new DeliveryRefused('the robot is not at work (put it to work, or resume it, first)');
}

export interface StartDeps {
  config: Config;
  models: Models;
  temporal: Client;
  log: Logger;
}

/** A start's answer: started, or a repeat (with the delivery it repeats, when it was looked up). */
export type Started = { started: true } | { started: false; duplicateOf: string | null };

/** How a repeat is told apart: its window, and whether to look up the delivery it repeats (for the log). */
interface RepeatCheck {
  windowMs: number;
  lookUpOriginal: boolean;
}

/**
 * Starts the delivery's workflow, or finds it a repeat (its stored body is then discarded).
 * Within its window a repeat makes nothing (src/domain/dedup.ts); a key's original that ended
 * longer ago than a window shorter than the namespace's retention is started again under the same
 * workflow ID. Anything else thrown means the delivery may not have been taken (answer 503).
 */
export async function startDelivery(
  deps: StartDeps,
  input: DeliveryInput,
  workflowId: string,
  repeat: RepeatCheck = { windowMs: DEDUP_WINDOW_MS, lookUpOriginal: false },
): Promise<Started> {
  const { models, log } = deps;
  const { deliveryId, body } = input;
  /** Starts it; false for a repeat. Maybe started, maybe not, on any other error: the sweep finds out later. */
  const start = async (reuse?: 'ALLOW_DUPLICATE'): Promise<boolean> => {
    try {
      await startDeliveryWorkflow(deps.temporal, deps.config, input, workflowId, reuse);
      return true;
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
      if (body.kind === 'stored' && !body.ownerId)
        await noteUnconfirmedBody(models, { _id: deliveryId, workflowId, chunks: body.chunks, at: new Date() }, log);
      throw err;
    }
  };
  if (await start()) return { started: true };
  /** A repeat's body, stored for it alone, is not kept. */
  const discardOwnBody = async () => {
    if (body.kind === 'stored' && !body.ownerId) await discardBlob(models, bodyBlobId(deliveryId), body.chunks);
  };
  const windowed = repeat.windowMs < DEDUP_WINDOW_MS;
  let duplicateOf: string | null = null;
  if (windowed || repeat.lookUpOriginal) {
    const original = await describeOriginal(deps, workflowId);
    if (windowed && original === null) {
      // Whether its window has passed is unknown: not taken (503), so the sender sends it again.
      await discardOwnBody();
      throw new Error(`could not read the workflow ${workflowId} to tell whether its dedup window has passed`);
    }
    // Refused again: another delivery of the key started it again just now, and this one is its repeat.
    const passed = windowed && original?.ended && original.arrivedAt < Date.now() - repeat.windowMs;
    if (passed && (await start('ALLOW_DUPLICATE'))) return { started: true };
    duplicateOf = original?.deliveryId ?? null;
  }
  await discardOwnBody();
  return { started: false, duplicateOf };
}

/**
 * The delivery whose workflow holds the ID, whether it has ended, and when it arrived (a window
 * runs from the original's arrival); null when it cannot be read.
 */
async function describeOriginal(
  { temporal }: StartDeps,
  workflowId: string,
): Promise<{ deliveryId: string | null; ended: boolean; arrivedAt: number } | null> {
  try {
    const d = await temporal.workflow.getHandle(workflowId).describe();
    const memo = (d.memo ?? {}) as Partial<DeliveryMemo>;
    const ended = d.status.name !== 'RUNNING';
    // Its arrival (a continued-as-new run starts later than its delivery arrived).
    const arrived = memo.receivedAt ? Date.parse(memo.receivedAt) : d.startTime.getTime();
    return { deliveryId: memo.deliveryId ?? null, ended, arrivedAt: arrived };
  } catch {
    return null;
  }
}
