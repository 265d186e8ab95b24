/**
 * Bodies over INLINE_BODY_BYTES are stored before their delivery's workflow is started. When that
 * start fails with no clear answer (a timeout, Temporal unreachable), the workflow may exist after
 * all and will read the body, or it may not, and then nothing ever would. The receiver cannot tell
 * at that moment, so it keeps the body and notes it here (`unconfirmed_bodies`, one document each,
 * only for failed starts: the collection stays tiny, so listing it whole is cheap on FerretDB too).
 *
 * The sweep, in each receiver every SWEEP_EVERY_MS, asks Temporal about each note older than
 * SWEEP_AFTER_MS (well past TEMPORAL_START_TIMEOUT_MS):
 * - no such workflow: the start never happened; the body is discarded;
 * - the workflow is this delivery's (its memo names it): it owns the body and discards it itself;
 * - the workflow is another delivery's (this one was a duplicate): the body is discarded;
 * - Temporal does not answer: asked again at the next sweep.
 */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { bodyBlobId, discardBlob } from '../storage/blobs';
import type { Logger } from '../core/log';
import { rawCollection } from '../storage/writes';
import { type Models } from '../storage/models';
import { type UnconfirmedBodyDoc } from '../storage/documents';
import { deleteById } from '../storage/by-id';
import { SWEEP_BATCH } from '../domain/limits';
import type { DeliveryMemo } from './contract';

const SWEEP_EVERY_MS = 60_000;
const SWEEP_AFTER_MS = 60_000;

/** Notes a stored body whose start failed without a clear answer; a failure to note it is logged. */
export async function noteUnconfirmedBody(models: Models, note: UnconfirmedBodyDoc, log: Logger): Promise<void> {
  try {
    await rawCollection(models.UnconfirmedBody).insertOne(note);
  } catch (err) {
    log.warn('a stored body of a failed start could not be noted; it stays stored', {
      deliveryId: note._id,
      err,
    });
  }
}

/** One sweep; returns how many bodies it discarded. */
export async function sweepUnconfirmedBodies(
  models: Models,
  temporal: Client,
  olderThanMs = SWEEP_AFTER_MS,
): Promise<number> {
  const before = new Date(Date.now() - olderThanMs);
  const notes = (await models.UnconfirmedBody.find({}).limit(SWEEP_BATCH).lean()).filter((n) => n.at <= before);
  let discarded = 0;
  for (const note of notes) {
    let ours: boolean;
    try {
      // Within the receiver's deadline for a description (src/temporal/client.ts); past it, the next sweep asks again.
      const described = await temporal.workflow.getHandle(note.workflowId).describe();
      ours = (described.memo as Partial<DeliveryMemo> | undefined)?.deliveryId === note._id;
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) continue; // Temporal did not answer: next sweep
      ours = false;
    }
    if (!ours) {
      await discardBlob(models, bodyBlobId(note._id), note.chunks);
      discarded++;
    }
    await deleteById(models.UnconfirmedBody, note._id);
  }
  return discarded;
}

export function startBodySweep(models: Models, temporal: Client, log: Logger): { stop(): void } {
  const timer = setInterval(() => {
    sweepUnconfirmedBodies(models, temporal).then(
      (n) => n > 0 && log.info('discarded stored bodies of deliveries that never started', { count: n }),
      (err: unknown) => log.warn('body sweep failed; tried again later', { err }),
    );
  }, SWEEP_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
