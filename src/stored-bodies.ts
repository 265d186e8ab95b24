/** Large request bodies live in MongoDB between the receiver and the parse activity. */
import type { mongo } from 'mongoose';
import { rawCollection, type Models } from './models';

/** Below MongoDB's 16 MiB document limit with room to spare. */
export const BODY_CHUNK_BYTES = 4 * 1024 * 1024;

export async function storeBody(models: Models, deliveryId: string, body: Buffer): Promise<number> {
  const chunks = [];
  for (let n = 0, at = 0; at < body.length; n++, at += BODY_CHUNK_BYTES) {
    chunks.push({ _id: `${deliveryId}:${n}`, deliveryId, n, data: body.subarray(at, at + BODY_CHUNK_BYTES) });
  }
  await rawCollection(models.BodyChunk).insertMany(chunks);
  return chunks.length;
}

export async function readStoredBody(models: Models, deliveryId: string, chunks: number): Promise<Buffer> {
  const docs = await models.BodyChunk.collection
    .find<{ data: mongo.Binary }>({ deliveryId }, { sort: { n: 1 }, projection: { data: 1 } })
    .toArray();
  if (docs.length !== chunks) throw new Error(`stored body of delivery ${deliveryId} has ${docs.length} of ${chunks} chunks`);
  return Buffer.concat(docs.map((d) => d.data.read(0, d.data.length())));
}

export async function discardBody(models: Models, deliveryId: string): Promise<void> {
  await models.BodyChunk.deleteMany({ deliveryId });
}
