/**
 * Pause with queueing. A paused robot's URL keeps answering 200: each delivery is accepted as
 * usual (its workflow started, so dedup still applies) but **held**: its workflow waits, searchable
 * as `DeliveryOutcome="held"`, and nothing is parsed or run (workflows/delivery.ts).
 *
 * Resuming (or putting a stopped robot to work again) releases what waits, in arrival order: each
 * held workflow is signalled and its delivery prepared before the next one is signalled, so the
 * history lists them in the order they arrived. Deliveries that arrive meanwhile run as usual.
 * A held workflow also asks every hour whether its robot is at work again, so one the release
 * missed (the process died half way, or Temporal's visibility had not yet listed it) still goes.
 *
 * A release belongs to one pause (the robot's `heldSince`, set afresh by each pause of a robot at
 * work). Before each signal it reads the robot again and stops once the robot is no longer at work
 * or has been paused since: nothing it releases runs while the robot is paused (but for one signal
 * sent in the instant of a pause), and the next resume's release takes over, in arrival order.
 *
 * What waiting costs the engine: one open workflow per held delivery (its input holds a body up to
 * INLINE_BODY_BYTES; larger bodies are in MongoDB) and about 6 history events an hour.
 */
import type { Client } from '@temporalio/client';
import { RELEASE_PAGE } from '../domain/limits';
import { RELEASE_SIGNAL } from '../domain/types';
import { DELIVERY_OUTCOME, HELD, ROBOT_ID } from '../domain/search-attributes';
import { byId } from '../history/store';
import type { Logger } from '../log';
import type { DeliveryDoc, RobotDoc } from '../storage/documents';
import type { DeliveryMemo } from '../receiver/body-sweep';
import type { Models } from '../storage/models';

/** How long a release waits for one delivery to be prepared before it signals the next anyway. */
const PREPARED_WITHIN_MS = 10_000;
/** How often it looks whether the delivery it released has been prepared. */
const PREPARED_POLL_MS = 50;

export interface ReleaseDeps {
  models: Models;
  temporal: Client;
  log: Logger;
}

/** Still the robot's pause this release belongs to, and the robot at work? */
async function stillReleasing(models: Models, robotId: string, heldSince: Date): Promise<boolean> {
  const robot = await byId<RobotDoc>(models.Robot, robotId);
  return robot?.state === 'at_work' && robot.heldSince?.getTime() === heldSince.getTime();
}

/**
 * Releases the deliveries held for the robot during its pause that began at `heldSince`, oldest
 * first; returns how many it released (fewer when it stopped because the robot was paused again).
 */
export async function releaseHeld(
  { models, temporal, log }: ReleaseDeps,
  robotId: string,
  heldSince: Date,
): Promise<number> {
  const query =
    `${ROBOT_ID.name} = "${robotId}" AND ${DELIVERY_OUTCOME.name} = "${HELD}" ` +
    `AND ExecutionStatus = "Running" AND WorkflowType = "deliveryWorkflow"`;
  const held: Array<{ workflowId: string; deliveryId: string; arrivedAt: number }> = [];
  for await (const w of temporal.workflow.list({ query, pageSize: RELEASE_PAGE })) {
    const memo = w.memo as Partial<DeliveryMemo> | undefined;
    // Arrival is the memo's receivedAt: a workflow's start time is its latest continue-as-new.
    const arrivedAt = memo?.receivedAt ? Date.parse(memo.receivedAt) : w.startTime.getTime();
    if (memo?.deliveryId) held.push({ workflowId: w.workflowId, deliveryId: memo.deliveryId, arrivedAt });
  }
  held.sort((a, b) => a.arrivedAt - b.arrivedAt);
  let released = 0;
  for (const { workflowId, deliveryId } of held) {
    if (!(await stillReleasing(models, robotId, heldSince))) {
      log.info('release of held deliveries stopped: the robot was paused again', { robotId, released });
      return released;
    }
    try {
      await temporal.workflow.getHandle(workflowId).signal(RELEASE_SIGNAL);
    } catch (err) {
      // It went on by itself (its hourly look) or ended: nothing to release.
      log.debug('a held delivery could not be signalled', { robotId, deliveryId, err: String(err) });
      continue;
    }
    released += 1;
    await preparedWithin(models, deliveryId, PREPARED_WITHIN_MS);
  }
  if (released > 0) log.info('released held deliveries', { robotId, count: released });
  return released;
}

async function preparedWithin(models: Models, deliveryId: string, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await byId<DeliveryDoc>(models.Delivery, deliveryId)) return true;
    await new Promise((resolve) => setTimeout(resolve, PREPARED_POLL_MS));
  }
  return false;
}
