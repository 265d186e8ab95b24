/**
 * Pause with queueing. A paused robot's URL keeps answering 200: each delivery is accepted as
 * usual (its workflow started, so dedup still applies) but **held**: its workflow waits, searchable
 * as `DeliveryOutcome="held"`, and nothing is parsed or run (workflows/delivery.ts).
 *
 * Resuming (or putting a stopped robot to work again) releases what waits, in arrival order: the
 * oldest held workflow is signalled, and the next only once that one's delivery is recorded
 * (however long its worker takes: a held workflow never goes by itself before its hourly look),
 * so the history lists them in the order they arrived. Deliveries that arrive meanwhile run as
 * usual. Once none is left the release looks once more, RELEASE_SETTLE_MS later, for deliveries a
 * receiver still held in the second after the resume or that Temporal listed late. A held
 * workflow also asks every hour whether its robot is at work, so one the release missed (the
 * process died half way) still goes, then out of order.
 *
 * A release belongs to one pause (the robot's `heldSince`, set afresh by each pause of a robot at
 * work). Before each signal it reads the robot again and stops once the robot is no longer at work
 * or has been paused since: nothing it releases runs while the robot is paused (but for one signal
 * sent in the instant of a pause), and the next resume's release takes over, in arrival order.
 * Once it ends (`releasePause`), the pause is over: `heldSince` is cleared, unless a pause came since.
 *
 * What waiting costs the engine: one open workflow per held delivery (its input holds a body up to
 * INLINE_BODY_BYTES; larger bodies are in MongoDB) and about 6 history events an hour.
 */
import type { Client } from '@temporalio/client';
import { setTimeout } from 'node:timers/promises';
import { RELEASE_PAGE } from '../domain/limits';
import { runsDeliveries } from '../domain/robot-lifecycle';
import { byId } from '../storage/by-id';
import type { Logger } from '../core/log';
import type { DeliveryDoc, RobotDoc } from '../storage/documents';
import { heldDeliveriesQuery, releaseSignal, type DeliveryMemo } from './contract';
import type { Models } from '../storage/models';

/**
 * How long after a listing found no held delivery left a release lists once more before it ends:
 * a receiver that had not yet seen the resume (STAMP_POLL_MS) may still hold a delivery, and
 * Temporal's visibility may list a new workflow late (the cluster's is asynchronous).
 */
const RELEASE_SETTLE_MS = 3000;
/** Waiting for a released delivery to be recorded: first look after this, doubling up to the most. */
const RECORDED_POLL_FIRST_MS = 50;
const RECORDED_POLL_MOST_MS = 1000;
/** While waiting, how often the release checks that the robot is still released and the workflow still running. */
const RECHECK_MS = 5000;

interface ReleaseDeps {
  models: Models;
  temporal: Client;
  log: Logger;
}

/** Still the robot's pause this release belongs to, and the robot at work? */
async function stillReleasing(models: Models, robotId: string, heldSince: Date): Promise<boolean> {
  const robot = await byId<RobotDoc>(models.Robot, robotId);
  return !!robot && runsDeliveries(robot.state) && robot.heldSince?.getTime() === heldSince.getTime();
}

interface HeldDelivery {
  workflowId: string;
  deliveryId: string;
  arrivedAt: number;
}

/** The robot's held workflows still running, oldest arrival first. */
async function listHeld(temporal: Client, robotId: string): Promise<HeldDelivery[]> {
  const held: HeldDelivery[] = [];
  for await (const w of temporal.workflow.list({ query: heldDeliveriesQuery(robotId), pageSize: RELEASE_PAGE })) {
    const memo = w.memo as Partial<DeliveryMemo> | undefined;
    // Arrival is the memo's receivedAt: a workflow's start time is its latest continue-as-new.
    const arrivedAt = memo?.receivedAt ? Date.parse(memo.receivedAt) : w.startTime.getTime();
    if (memo?.deliveryId) held.push({ workflowId: w.workflowId, deliveryId: memo.deliveryId, arrivedAt });
  }
  return held.sort((a, b) => a.arrivedAt - b.arrivedAt);
}

/**
 * Releases the deliveries held for the robot during its pause that began at `heldSince`, oldest
 * first; returns how many it released (fewer when it stopped because the robot was paused again).
 */
export async function releaseHeld(
  deps: ReleaseDeps,
  robotId: string,
  heldSince: Date,
  /** Aborts when the process stops: the release ends between two calls (the hourly looks take over). */
  signal?: AbortSignal,
): Promise<number> {
  const { models, temporal, log } = deps;
  const signalled = new Set<string>();
  let released = 0;
  const stopped = () => {
    log.info('release of held deliveries stopped: the robot was paused again', { robotId, released });
    return released;
  };
  for (let settled = false; ;) {
    if (signal?.aborted) return released;
    if (!(await stillReleasing(models, robotId, heldSince))) return stopped();
    const held = (await listHeld(temporal, robotId)).filter((h) => !signalled.has(h.workflowId));
    if (held.length === 0) {
      if (settled) break;
      settled = true;
      await sleep(RELEASE_SETTLE_MS, signal);
      continue;
    }
    settled = false;
    for (const { workflowId, deliveryId } of held) {
      if (signal?.aborted) return released;
      if (!(await stillReleasing(models, robotId, heldSince))) return stopped();
      signalled.add(workflowId);
      try {
        await temporal.workflow.getHandle(workflowId).signal(releaseSignal);
      } catch (err) {
        // It went on by itself (its hourly look) or ended: nothing to release.
        log.debug('a held delivery could not be signalled', { robotId, deliveryId, err });
        continue;
      }
      released += 1;
      if (!(await recorded(deps, { workflowId, deliveryId }, robotId, heldSince, signal))) return stopped();
    }
  }
  if (released > 0) log.info('released held deliveries', { robotId, count: released });
  return released;
}

/**
 * Waits until the released delivery is recorded (its worker prepared it), or its workflow ended
 * without (terminated); false when the robot was paused again meanwhile.
 */
async function recorded(
  { models, temporal }: ReleaseDeps,
  { workflowId, deliveryId }: { workflowId: string; deliveryId: string },
  robotId: string,
  heldSince: Date,
  signal?: AbortSignal,
): Promise<boolean> {
  let pause = RECORDED_POLL_FIRST_MS;
  let recheckAt = Date.now() + RECHECK_MS;
  while (!(await byId<DeliveryDoc>(models.Delivery, deliveryId))) {
    if (signal?.aborted) return true;
    if (Date.now() >= recheckAt) {
      recheckAt = Date.now() + RECHECK_MS;
      if (!(await stillReleasing(models, robotId, heldSince))) return false;
      const { status } = await temporal.workflow.getHandle(workflowId).describe();
      if (status.name !== 'RUNNING') return true;
    }
    await sleep(pause, signal);
    pause = Math.min(pause * 2, RECORDED_POLL_MOST_MS);
  }
  return true;
}

/** Waits `ms`, or less when `signal` aborts. */
const sleep = (ms: number, signal?: AbortSignal) => setTimeout(ms, undefined, { signal }).catch(() => undefined);

/**
 * A resume's release of what its pause held (`releaseHeld`), then the pause marked over: the robot's
 * `heldSince` cleared, only while no pause came since (a later pause's deliveries wait for its own
 * resume), and not when the process is stopping (`signal` aborted: what is left goes with its hourly look).
 */
export async function releasePause(
  deps: ReleaseDeps,
  robotId: string,
  heldSince: Date,
  signal: AbortSignal,
): Promise<void> {
  await releaseHeld(deps, robotId, heldSince, signal);
  if (!signal.aborted) await deps.models.Robot.updateOne({ _id: robotId, heldSince }, { $set: { heldSince: null } });
}
