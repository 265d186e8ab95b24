/**
 * Bytes too large for one document, stored in chunks under an owner id: request bodies between
 * the receiver and the parse activity, and JSON text (trigger data, step outputs) over
 * INLINE_JSON_BYTES. MongoDB and FerretDB refuse documents over 16 MiB; a body may be 32 MiB.
 * Chunks are read and deleted by their exact `_id` (by-id.ts).
 */
import type { mongo } from 'mongoose';
import { deleteById } from './by-id';
import type { BlobChunkDoc, StoredJson } from './documents';
import type { Models } from './models';
import { insertOnce, type GroupedInsert } from './writes';
import { BLOB_CHUNK_BYTES, INLINE_JSON_BYTES } from '../domain/limits';

const chunkId = (ownerId: string, n: number) => `${ownerId}:${n}`;

/** A blob read whole is missing a chunk: what needed it can never succeed (it is not retried). */
export class BlobMissing extends Error {
  override name = 'BlobMissing';
}

/**
 * Stores the bytes (idempotent: a retry finds its chunks written) and returns the chunk count; one
 * chunk at a time, through `insert` when given (a worker's grouped insert, shared by its activities).
 */
export async function storeBlob(
  models: Models,
  ownerId: string,
  data: Buffer,
  insert: GroupedInsert<BlobChunkDoc> = (chunk) => insertOnce(models.BlobChunk, chunk),
): Promise<number> {
  const chunks = [];
  for (let n = 0, at = 0; at < data.length; n++, at += BLOB_CHUNK_BYTES) {
    chunks.push({ _id: chunkId(ownerId, n), ownerId, n, data: data.subarray(at, at + BLOB_CHUNK_BYTES) });
  }
  for (const chunk of chunks) await insert([chunk]);
  return chunks.length;
}

/** Reads the chunks in order; `onChunk` is called after each (an activity's heartbeat). */
export async function readBlob(models: Models, ownerId: string, chunks: number, onChunk?: () => void): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let n = 0; n < chunks; n++) {
    if (n > 0) onChunk?.();
    parts.push(await readChunk(models, ownerId, n, chunks));
  }
  return Buffer.concat(parts);
}

/**
 * The blob's bytes from `start` (a byte offset) to its end, chunk by chunk as they are asked for
 * (a reader that stops early reads no further chunk); `onChunk` is called after each.
 */
export async function* blobBytesFrom(
  models: Models,
  ownerId: string,
  chunks: number,
  start: number,
  onChunk?: () => void,
): AsyncGenerator<Buffer, void, undefined> {
  for (let n = Math.floor(start / BLOB_CHUNK_BYTES); n < chunks; n++) {
    const data = await readChunk(models, ownerId, n, chunks);
    onChunk?.();
    yield n * BLOB_CHUNK_BYTES < start ? data.subarray(start - n * BLOB_CHUNK_BYTES) : data;
  }
}

/** One chunk's bytes; a missing one is BlobMissing. */
async function readChunk(models: Models, ownerId: string, n: number, chunks: number): Promise<Buffer> {
  const doc = await models.BlobChunk.collection.findOne<{ data: mongo.Binary }>(
    { _id: chunkId(ownerId, n) as never },
    { projection: { data: 1 } },
  );
  if (!doc) throw new BlobMissing(`blob ${ownerId} is missing chunk ${n} of ${chunks}`);
  return Buffer.from(doc.data.read(0, doc.data.length()));
}

/** Whether the blob is still stored (its first chunk, read by `_id`). */
export async function blobExists(models: Models, ownerId: string): Promise<boolean> {
  return (
    (await models.BlobChunk.collection.findOne({ _id: chunkId(ownerId, 0) as never }, { projection: { _id: 1 } })) !==
    null
  );
}

export async function discardBlob(models: Models, ownerId: string, chunks: number): Promise<void> {
  // One delete per chunk, by `_id`.
  for (let n = 0; n < chunks; n++) await deleteById(models.BlobChunk, chunkId(ownerId, n));
}

export async function storeJson(models: Models, ownerId: string, json: string): Promise<StoredJson> {
  if (Buffer.byteLength(json) <= INLINE_JSON_BYTES) return { json };
  return { chunks: await storeBlob(models, ownerId, Buffer.from(json)) };
}

export async function loadJson(models: Models, ownerId: string, stored: StoredJson): Promise<string> {
  return 'json' in stored ? stored.json : (await readBlob(models, ownerId, stored.chunks)).toString('utf8');
}

/** Owner ids of the JSON kept for runs. */
export const triggerBlobId = (runId: string) => `trigger:${runId}`;
export const outputBlobId = (runId: string, stepIndex: number) => `output:${runId}:${stepIndex}`;
export const bodyBlobId = (deliveryId: string) => `body:${deliveryId}`;
