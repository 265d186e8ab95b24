/** A delivery's raw body: inline in its input, or stored in chunks by the receiver. */
import type { DeliveryInput } from '../domain/types';
import { bodyBlobId, readBlob } from '../storage/blobs';
import type { Models } from '../storage/models';
import type { Progress } from './progress';

/** The request body; a stored one is read chunk by chunk, with a heartbeat (of what was resumed) after each. */
export function bodyBytes(input: DeliveryInput, models: Models, progress: Progress): Promise<Buffer> | Buffer {
  const { body } = input;
  if (body.kind === 'inline') return Buffer.from(body.data, body.encoding);
  return readBlob(models, bodyBlobId(input.deliveryId), body.chunks, () => progress.beat(progress.resumed));
}
