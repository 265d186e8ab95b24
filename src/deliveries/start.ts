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
import type { Config } from '../config';
import { DELIVERY_ID_REUSE_POLICY } from '../domain/dedup';
import { deliveryStartAttributes } from '../domain/search-attributes';
import type { DeliveryInput } from '../domain/types';
import { noteUnconfirmedBody } from './body-sweep';
import { deliveryWorkflow, type DeliveryMemo } from './contract';
import type { Logger } from '../log';
import { bodyBlobId, discardBlob } from '../storage/blobs';
import type { Models } from '../storage/models';
import type { RobotDoc } from '../storage/documents';
import { takesDeliveries } from '../domain/robot-lifecycle';

/** Starts the delivery's workflow; throws WorkflowExecutionAlreadyStartedError for a repeat. */
export async function startDeliveryWorkflow(
  temporal: Client,
  config: Config,
  input: DeliveryInput,
  workflowId: string,
): Promise<void> {
  const what = input.replayOf ? `Replay of delivery ${input.replayOf}` : input.test ? 'Test delivery' : 'Delivery';
  await temporal.withDeadline(Date.now() + config.temporal.startTimeoutMs, () =>
    temporal.workflow.start(deliveryWorkflow, {
      taskQueue: config.temporal.taskQueue,
      workflowId,
      args: [input],
      memo: { deliveryId: input.deliveryId, receivedAt: input.receivedAt } satisfies DeliveryMemo,
      typedSearchAttributes: deliveryStartAttributes(input),
      staticSummary: `${what} for robot ${JSON.stringify(input.robotName)} (${input.size} bytes)`,
      workflowIdReusePolicy: DELIVERY_ID_REUSE_POLICY,
    }),
  );
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

/**
 * Starts the delivery's workflow: true when started, false for a repeat (its stored body is
 * discarded). Anything else thrown means the delivery may not have been taken (answer 503).
 */
export async function startDelivery(deps: StartDeps, input: DeliveryInput, workflowId: string): Promise<boolean> {
  const { models, log } = deps;
  const { deliveryId, body } = input;
  try {
    await startDeliveryWorkflow(deps.temporal, deps.config, input, workflowId);
    return true;
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) {
      // Maybe started, maybe not: the sweep finds out later.
      if (body.kind === 'stored' && !body.ownerId)
        await noteUnconfirmedBody(models, { _id: deliveryId, workflowId, chunks: body.chunks, at: new Date() }, log);
      throw err;
    }
    if (body.kind === 'stored' && !body.ownerId) await discardBlob(models, bodyBlobId(deliveryId), body.chunks);
    return false;
  }
}
