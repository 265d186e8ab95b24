/**
 * A kept body shared by the deliveries that replay it (docs/storage.md, Kept bodies). A body is
 * stored once, under its first delivery (its owner, `body:<id>`); a replay of a large body refers
 * to it rather than copying it (a bulk replay of 1,000 deliveries of 32 MiB each once wrote 32 GB).
 * The body is removed once its owner and every delivery that refers to it are gone.
 *
 * Counted with inserts only, the one atomic write of FerretDB v1, and reads by `_id`:
 * - a replay claims the body's next reference, `ref:<body>:<n>` (n from 1), naming itself, and then
 *   checks that the delivery it replays is still kept (`referBody`): if retention removed it
 *   meanwhile, the replay lets go and is refused;
 * - retention removes a delivery's own document first, then `releaseBody`: a body nothing refers to
 *   goes with its owner at once (one read more than before); otherwise the delivery is marked gone
 *   from it (`gone:<body>:<delivery>`), and the body goes with the last of them.
 *
 * A replay whose check comes after the removal is refused; one whose claim came before it is seen
 * by the removal's look at the references. So a body is never removed while a kept delivery refers
 * to it, and never kept once none does.
 */
import type { BodyRefDoc } from './documents';
import { byId, deleteById } from './by-id';
import type { Models } from './models';
import { claimById } from './writes';
import { blobExists, discardBlob } from './blobs';

/** The delivery refers to a body no longer kept (the replay is refused). */
export class BodyGone extends Error {
  override name = 'BodyGone';
}

const refId = (body: string, n: number) => `ref:${body}:${n}`;
const goneId = (body: string, deliveryId: string) => `gone:${body}:${deliveryId}`;
/** The delivery a body is stored under: `body:<id>` (src/storage/blobs.ts, bodyBlobId). */
const ownerOf = (body: string) => body.slice('body:'.length);

/** The deliveries that refer to the body, by reference number. */
async function referrers(models: Models, body: string): Promise<string[]> {
  const found: string[] = [];
  for (let n = 1; ; n++) {
    const ref = await byId<BodyRefDoc>(models.BodyRef, refId(body, n));
    if (!ref) return found;
    found.push(ref.deliveryId);
  }
}

/**
 * Makes `deliveryId` (a replay) refer to the body that `replayed` keeps; throws BodyGone when the
 * body or the delivery replayed is no longer kept.
 */
export async function referBody(
  models: Models,
  body: { ownerId: string },
  deliveryId: string,
  replayed: string,
): Promise<void> {
  if (!(await blobExists(models, body.ownerId))) throw new BodyGone("the delivery's body is no longer kept");
  for (let n = 1; ; n++)
    if (await claimById(models.BodyRef, { _id: refId(body.ownerId, n), deliveryId, at: new Date() })) break;
  if (!(await byId(models.Delivery, replayed))) {
    await letGoOfBody(models, body, deliveryId);
    throw new BodyGone('the delivery is no longer kept');
  }
}

/** A delivery that referred to the body will never be kept (its start failed): it is gone from it. */
export async function letGoOfBody(models: Models, body: { ownerId: string }, deliveryId: string): Promise<void> {
  await claimById(models.BodyRef, { _id: goneId(body.ownerId, deliveryId), deliveryId, at: new Date() });
}

/**
 * Retention removed the delivery's document: its kept body goes too once its owner and every
 * delivery that refers to it are gone.
 */
export async function releaseBody(
  models: Models,
  body: { ownerId: string; chunks: number },
  deliveryId: string,
): Promise<void> {
  const owner = ownerOf(body.ownerId);
  const refs = await referrers(models, body.ownerId);
  if (refs.length === 0) {
    if (deliveryId === owner) await discardBlob(models, body.ownerId, body.chunks);
    return;
  }
  await letGoOfBody(models, body, deliveryId);
  for (const other of [owner, ...refs])
    if (other !== deliveryId && !(await byId(models.BodyRef, goneId(body.ownerId, other)))) return;
  await discardBlob(models, body.ownerId, body.chunks);
  for (const [i, id] of [owner, ...refs].entries()) {
    await deleteById(models.BodyRef, goneId(body.ownerId, id));
    if (i > 0) await deleteById(models.BodyRef, refId(body.ownerId, i));
  }
}
