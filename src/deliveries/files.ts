/**
 * The files of a `form` delivery (src/domain/form-bodies.ts): its trigger data names each by
 * `{ filename, contentType, size, sha256 }`, and its bytes are those of the body kept with the
 * delivery (so they count in the body limits and go with it at retention). One is read back by its
 * sha256 from the kept body, read again as the multipart form it was.
 */
import { multipartFile } from '../domain/multipart';
import { BlobMissing, readBlob } from '../storage/blobs';
import type { DeliveryDoc } from '../storage/documents';
import type { Models } from '../storage/models';

/** The file, or null: no such file, no kept body (a rejected delivery, one past retention), not a form. */
export async function deliveryFile(
  models: Models,
  delivery: DeliveryDoc,
  sha256: string,
): Promise<{ filename: string | null; bytes: Buffer } | null> {
  if (!delivery.body || !/^[0-9a-f]{64}$/.test(sha256)) return null;
  let body: Buffer;
  try {
    body = await readBlob(models, delivery.body.ownerId, delivery.body.chunks);
  } catch (err) {
    if (err instanceof BlobMissing) return null;
    throw err;
  }
  return multipartFile(body, delivery.contentType, sha256);
}
