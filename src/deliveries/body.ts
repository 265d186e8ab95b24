/**
 * A delivery's raw body: inline in its input, or stored in chunks under its own id (by the receiver),
 * or, for a replay of a large body, its original's kept body (`ownerId`), which is kept while any
 * delivery refers to it (src/storage/body-refs.ts), so a replay never needs a body that retention
 * may remove while it waits (a robot paused). Every body is kept for as long as a delivery that has
 * it is in the history, so that the delivery can be replayed. Deliveries replayed before 0.5 read
 * their original's too; those replayed from 0.5 to 0.6 have a copy of their own.
 */
import { isUtf8 } from 'node:buffer';
import type { DeliveryBody, DeliveryInput } from '../domain/types';
import { blobBytesFrom, bodyBlobId, readBlob, storeBlob } from '../storage/blobs';
import type { BlobChunkDoc } from '../storage/documents';
import type { Models } from '../storage/models';
import type { GroupedInsert } from '../storage/writes';
import type { Progress } from './progress';

/** The blob a stored body is in. */
function bodyOwnerOf(input: DeliveryInput): string {
  return (input.body.kind === 'stored' && input.body.ownerId) || bodyBlobId(input.deliveryId);
}

/** The request body; a stored one is read chunk by chunk, with a heartbeat (of what was resumed) after each. */
export function bodyBytes(input: DeliveryInput, models: Models, progress: Progress): Promise<Buffer> | Buffer {
  const { body } = input;
  if (body.kind === 'inline') return Buffer.from(body.data, body.encoding);
  return readBlob(models, bodyOwnerOf(input), body.chunks, () => progress.beat(progress.resumed));
}

/** The request body's bytes from `start` on; a stored one read chunk by chunk as asked for (a heartbeat each). */
export function bodyBytesFrom(
  input: DeliveryInput,
  models: Models,
  start: number,
  progress: Progress,
): Iterable<Uint8Array> | AsyncIterable<Uint8Array> {
  const { body } = input;
  if (body.kind === 'inline') return [Buffer.from(body.data, body.encoding).subarray(start)];
  return blobBytesFrom(models, bodyOwnerOf(input), body.chunks, start, () => progress.beat(progress.resumed));
}

/**
 * Where the body is kept for replay: a stored body where it is, an inline one stored now (idempotent),
 * through `insert` when given (the worker's grouped insert of chunks).
 */
export async function keepBody(
  input: DeliveryInput,
  bytes: Buffer,
  models: Models,
  insert?: GroupedInsert<BlobChunkDoc>,
): Promise<{ ownerId: string; chunks: number }> {
  const ownerId = bodyOwnerOf(input);
  if (input.body.kind === 'stored') return { ownerId, chunks: input.body.chunks };
  return { ownerId, chunks: await storeBlob(models, ownerId, bytes, insert) };
}

/**
 * How a new delivery carries its body: up to `inlineBytes` (INLINE_BODY_BYTES) inside its workflow
 * input (as text when valid UTF-8, so an operator reads it decoded in the Web UI), else stored in
 * chunks under the delivery's own id first (the receiver's bodies and the replays' copies alike).
 */
export async function deliveryBody(
  models: Models,
  inlineBytes: number,
  deliveryId: string,
  bytes: Buffer,
): Promise<DeliveryBody> {
  if (bytes.length <= inlineBytes) {
    return isUtf8(bytes)
      ? { kind: 'inline', encoding: 'utf8', data: bytes.toString('utf8') }
      : { kind: 'inline', encoding: 'base64', data: bytes.toString('base64') };
  }
  return { kind: 'stored', chunks: await storeBlob(models, bodyBlobId(deliveryId), bytes) };
}
