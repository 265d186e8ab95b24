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
 * What waiting costs the engine: one open workflow per held delivery (its input holds a body up to
 * INLINE_BODY_BYTES; larger bodies are in MongoDB) and about 6 history events an hour.
 */
import type { Client } from '@temporalio/client';
import { RELEASE_PAGE } from '../domain/limits';
import { RELEASE_SIGNAL } from '../domain/types';
import { DELIVERY_OUTCOME, ROBOT_ID } from '../domain/search-attributes';
import { byId } from '../history/store';
import type { Logger } from '../log';
import type { DeliveryDoc } from '../storage/documents';
import type { Models } from '../storage/models';
import { HELD } from '../deliveries/start';

/** How long a release waits for one delivery to be prepared before it signals the next anyway. */
const PREPARED_WITHIN_MS = 10_000;
/** How often it looks whether the delivery it released has been prepared. */
const PREPARED_POLL_MS = 50;

export interface ReleaseDeps {
  models: Models;
  temporal: Client;
  log: Logger;
}

/** Releases every delivery held for the robot, oldest first; returns how many it released. */
export async function releaseHeld({ models, temporal, log }: ReleaseDeps, robotId: string): Promise<number> {
  const query =
    `${ROBOT_ID.name} = "${robotId}" AND ${DELIVERY_OUTCOME.name} = "${HELD}" ` +
    `AND ExecutionStatus = "Running" AND WorkflowType = "deliveryWorkflow"`;
  const held: Array<{ workflowId: string; deliveryId: string; startTime: Date }> = [];
  for await (const w of temporal.workflow.list({ query, pageSize: RELEASE_PAGE })) {
    const deliveryId = (w.memo as { deliveryId?: string } | undefined)?.deliveryId;
    if (deliveryId) held.push({ workflowId: w.workflowId, deliveryId, startTime: w.startTime });
  }
  held.sort((a, b) => a.startTime.getTime() - b.startTime.getTime());
  for (const { workflowId, deliveryId } of held) {
    try {
      await temporal.workflow.getHandle(workflowId).signal(RELEASE_SIGNAL);
    } catch (err) {
      // It went on by itself (its hourly look) or ended: nothing to release.
      log.debug('a held delivery could not be signalled', { robotId, deliveryId, err: String(err) });
      continue;
    }
    await preparedWithin(models, deliveryId, PREPARED_WITHIN_MS);
  }
  if (held.length > 0) log.info('released held deliveries', { robotId, count: held.length });
  return held.length;
}

async function preparedWithin(models: Models, deliveryId: string, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await byId<DeliveryDoc>(models.Delivery, deliveryId)) return true;
    await new Promise((resolve) => setTimeout(resolve, PREPARED_POLL_MS));
  }
  return false;
}
