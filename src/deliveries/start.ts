/**
 * Starting a delivery's workflow, the same way for a request the receiver took and for a replay:
 * its ID comes from the dedup key (src/domain/dedup.ts), so the engine refuses a repeat; it is
 * searchable by robot and trigger, and a delivery held for a paused robot by `DeliveryOutcome="held"`.
 */
import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import { DELIVERY_ID_REUSE_POLICY } from '../domain/dedup';
import { DELIVERY_OUTCOME, deliveryAttributes } from '../domain/search-attributes';
import type { DeliveryInput } from '../domain/types';
import type { DeliveryMemo } from '../receiver/body-sweep';

/** The outcome a held delivery's workflow is searchable by until the robot is resumed. */
export const HELD = 'held';

/** Starts the delivery's workflow; throws WorkflowExecutionAlreadyStartedError for a repeat. */
export async function startDeliveryWorkflow(
  temporal: Client,
  config: Config,
  input: DeliveryInput,
  workflowId: string,
): Promise<void> {
  const what = input.replayOf ? `Replay of delivery ${input.replayOf}` : 'Delivery';
  await temporal.withDeadline(Date.now() + config.temporal.startTimeoutMs, () =>
    temporal.workflow.start('deliveryWorkflow', {
      taskQueue: config.temporal.taskQueue,
      workflowId,
      args: [input],
      memo: { deliveryId: input.deliveryId, receivedAt: input.receivedAt } satisfies DeliveryMemo,
      typedSearchAttributes: [
        ...deliveryAttributes(input.robotId, input.triggerIdentifier),
        ...(input.held ? [{ key: DELIVERY_OUTCOME, value: HELD }] : []),
      ],
      staticSummary: `${what} for robot ${JSON.stringify(input.robotName)} (${input.size} bytes)`,
      workflowIdReusePolicy: DELIVERY_ID_REUSE_POLICY,
    }),
  );
}
