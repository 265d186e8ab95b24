/**
 * Replay: a new delivery from a kept delivery's raw bytes and headers, parsed in the app's body
 * format **of now** and run with the robot's steps of now, so a delivery that failed because the
 * format or the steps were wrong runs once they are fixed.
 *
 * - Each replay is a new delivery with the dedup key `replay:<original id>:<n>` (n from 1, claimed
 *   by insert, so two replays at once get two numbers), marked `replayOf` in the deliveries log.
 * - A small body (up to INLINE_BODY_BYTES) travels in its input; a larger one is not copied: the
 *   replay refers to its original's kept body, which is kept while any delivery refers to it
 *   (src/storage/body-refs.ts), so a replay never needs a body retention may remove while it waits,
 *   and a bulk replay of large deliveries writes no copies. It is not verified again (a signature's
 *   time window would have passed): it carries its original's `verified`.
 * - A robot that is paused holds the replay like any delivery; a robot stopped or never put to work
 *   cannot replay (409).
 * - A rejected delivery (refused by its signature check) replays only when its whole body was kept
 *   (REFUSED_BODY_KEPT_BYTES) and it verifies now, with the trigger's secret of now, as at the time
 *   it was received (the secret was wrong, not the sender): one that still does not is not replayed
 *   (409, or left out of a bulk replay and counted). An app that no longer signs replays it unverified.
 * - Many at once (`replayMany`): the robot's deliveries of one outcome, newest first, that are
 *   not replays themselves, REPLAY_BATCH started at a time, at most REPLAYS_PER_REQUEST per request.
 */
import { replayKey } from '../domain/dedup';
import { triggerChecks } from '../robots/trigger-verification';
import { cardToken } from '../robots/trigger-tokens';
import { verifySender } from '../domain/senders/checks';
import { webhookUrl } from '../domain/ids';
import { deliveryWorkflowId } from '../domain/ids';
import { REPLAY_BATCH, REPLAYS_PER_REQUEST } from '../domain/limits';
import { newId } from '../domain/secrets';
import type { DeliveryOutcome, RequestCapture } from '../domain/types';
import { deliveriesPage } from '../history/reads';
import { byId } from '../storage/by-id';
import type { DeliveryDoc, RobotDoc } from '../storage/documents';
import type { Models } from '../storage/models';
import { claimById } from '../storage/writes';
import { BlobMissing, readBlob } from '../storage/blobs';
import { BodyGone, letGoOfBody, referBody } from '../storage/body-refs';
import { acceptingRobot, deliveryInput } from './input';
import { DeliveryRefused, refuseUnlessTakingDeliveries, startDelivery, type StartDeps } from './start';

type ReplayDeps = StartDeps;

/** Why a delivery cannot be replayed (the API answers 409 with it). */
class NotReplayable extends DeliveryRefused {
  override name = 'NotReplayable';
}

/** Replays one delivery; returns the new delivery's id. */
export async function replayDelivery(deps: ReplayDeps, original: DeliveryDoc): Promise<string> {
  const { models } = deps;
  const robot = await byId<RobotDoc>(models.Robot, original.robotId);
  refuseUnlessTakingDeliveries(robot);
  const kept = original.body;
  if (!kept) throw new NotReplayable(`a ${original.outcome} delivery without a kept body cannot be replayed`);
  if (original.outcome === 'handshake') throw new NotReplayable("a sender's check of the URL is not replayed");
  if (original.bodyKeptBytes !== undefined)
    throw new NotReplayable(`only the first ${original.bodyKeptBytes} bytes of its body were kept`);
  const deliveryId = newId();
  let bytes: Buffer | null = null;
  let verified = original.verified;
  try {
    if (original.size <= deps.config.inlineBodyBytes) bytes = await readBlob(models, kept.ownerId, kept.chunks);
    else await referBody(models, kept, deliveryId, original._id);
  } catch (err) {
    if (err instanceof BlobMissing || err instanceof BodyGone) throw new NotReplayable(notKept(err));
    throw err;
  }
  // A refused body is at most REFUSED_BODY_KEPT_BYTES, so it is read whole above.
  if (original.outcome === 'rejected' && bytes) verified = await verifiedNow(deps, robot, original, bytes);
  try {
    const n = await claimReplayNumber(models, original._id);
    const dedupKey = replayKey(original._id, n);
    const input = await deliveryInput(models, deps.config.inlineBodyBytes, {
      deliveryId,
      robot: await acceptingRobot(models, robot),
      triggerIdentifier: original.triggerIdentifier,
      receivedAt: new Date(),
      dedupKey,
      contentType: original.contentType,
      bytes: bytes ?? { size: original.size, kept },
      verified,
      headers: JSON.parse(original.headersJson ?? '{}') as Record<string, string>,
      replayOf: original._id,
      ...(original.requestJson ? { request: JSON.parse(original.requestJson) as RequestCapture } : {}),
    });
    await startDelivery(deps, input, deliveryWorkflowId(original.triggerIdentifier, dedupKey));
  } catch (err) {
    // Not started (or not known to be): a body it referred to is not kept for it. Should it have
    // started after all, its preparation fails once as a delivery whose body is no longer kept.
    if (!bytes) await letGoOfBody(models, kept, deliveryId);
    throw err;
  }
  return deliveryId;
}

/** A refused delivery's signature checked with the trigger's secret of now, as when it came; 409 when it fails. */
async function verifiedNow(deps: ReplayDeps, robot: RobotDoc, original: DeliveryDoc, body: Buffer) {
  const { verification } = await triggerChecks(deps.models, deps.config.secretsKeys, robot);
  if (!verification) return null;
  const path = original.requestJson ? (JSON.parse(original.requestJson) as RequestCapture).path : '';
  const query = path.includes('?') ? path.slice(path.indexOf('?')) : '';
  const url = webhookUrl(
    deps.config.baseUrl,
    robot.trigger.identifier,
    cardToken(deps.config.secretsKeys, robot.trigger),
  );
  const verdict = verifySender(verification, {
    method: original.requestJson ? (JSON.parse(original.requestJson) as RequestCapture).method : 'POST',
    publicUrl: `${url ?? ''}${query}`,
    query: new URLSearchParams(query.slice(1)),
    headers: JSON.parse(original.headersJson ?? '{}') as Record<string, string>,
    body,
    receivedAtMs: new Date(original.receivedAt).getTime(),
  });
  if (!verdict.ok) throw new NotReplayable(`it still does not verify with the trigger's secret: ${verdict.reason}`);
  return true;
}

const notKept = (err: Error) => (err instanceof BodyGone ? err.message : "the delivery's body is no longer kept");

/** The next replay number of a delivery, claimed by insert (`<id>:<n>`, read by `_id`). */
async function claimReplayNumber(models: Models, originalId: string): Promise<number> {
  for (let n = 1; ; n++)
    if (await claimById(models.ReplayClaim, { _id: `${originalId}:${n}`, at: new Date() })) return n;
}

export interface ReplayMany {
  outcome: DeliveryOutcome;
  /** Only deliveries received at or after this time. */
  since?: Date;
  cursor?: string;
}

/**
 * Replays the robot's deliveries of an outcome, newest first (replays, and refused ones that do not verify now,
 * left out),
 * up to REPLAYS_PER_REQUEST; `nextCursor` goes on where it stopped, null once none is left.
 */
export async function replayMany(
  deps: ReplayDeps,
  robotId: string,
  which: ReplayMany,
): Promise<{ deliveryIds: string[]; notReplayed: number; nextCursor: string | null }> {
  const deliveryIds: string[] = [];
  let notReplayed = 0;
  let cursor = which.cursor;
  for (;;) {
    const room = REPLAYS_PER_REQUEST - deliveryIds.length;
    if (room === 0) return { deliveryIds, notReplayed, nextCursor: cursor ?? null };
    const page = await deliveriesPage(deps.models, robotId, Math.min(REPLAY_BATCH, room), cursor);
    const tooOld = (d: { receivedAt: Date }) => which.since !== undefined && new Date(d.receivedAt) < which.since;
    const chosen = page.items.filter((d) => !tooOld(d) && d.outcome === which.outcome && !d.replayOf && d.body);
    for (const d of chosen) {
      const original = await byId<DeliveryDoc>(deps.models.Delivery, d._id);
      if (!original) continue;
      try {
        deliveryIds.push(await replayDelivery(deps, original));
      } catch (err) {
        // A refused one that still does not verify (or whose body was cut) is left out, and counted.
        if (!(err instanceof NotReplayable && original.outcome === 'rejected')) throw err;
        notReplayed++;
      }
    }
    // Newest first: once one is older than `since`, all after it are too.
    if (page.items.some(tooOld) || !page.nextCursor) return { deliveryIds, notReplayed, nextCursor: null };
    cursor = page.nextCursor;
  }
}
