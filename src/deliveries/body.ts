/**
 * A delivery's raw body: inline in its input, or stored in chunks (by the receiver, or, for a
 * replay, its original's). Every body is kept, stored once, for as long as its delivery is in the
 * history (retention removes it with the delivery), so that the delivery can be replayed.
 */
import type { DeliveryInput } from '../domain/types';
import { bodyBlobId, readBlob, storeBlob } from '../storage/blobs';
import type { Models } from '../storage/models';
import type { Progress } from './progress';

/** The blob a stored body is in. */
export function bodyOwnerOf(input: DeliveryInput): string {
  return (input.body.kind === 'stored' && input.body.ownerId) || bodyBlobId(input.deliveryId);
}

/** The request body; a stored one is read chunk by chunk, with a heartbeat (of what was resumed) after each. */
export function bodyBytes(input: DeliveryInput, models: Models, progress: Progress): Promise<Buffer> | Buffer {
  const { body } = input;
  if (body.kind === 'inline') return Buffer.from(body.data, body.encoding);
  return readBlob(models, bodyOwnerOf(input), body.chunks, () => progress.beat(progress.resumed));
}

/** Where the body is kept for replay: a stored body where it is, an inline one stored now (idempotent). */
export async function keepBody(
  input: DeliveryInput,
  bytes: Buffer,
  models: Models,
): Promise<{ ownerId: string; chunks: number }> {
  const ownerId = bodyOwnerOf(input);
  if (input.body.kind === 'stored') return { ownerId, chunks: input.body.chunks };
  return { ownerId, chunks: await storeBlob(models, ownerId, bytes) };
}
