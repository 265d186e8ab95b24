/**
 * Reads and deletes by exact `_id`: the only way the service touches a collection that grows.
 *
 * **The FerretDB rule** (stated here once; docs/storage.md measures it). FerretDB v1 on SQLite, the
 * embedded default, hands SQLite only a filter that is exactly `{ _id: value }` (as
 * `_ferretdb_sjson->'$._id' = ?`, an index search with the index scripts/sqlite-tune adds); every
 * other filter, `$in`, count, aggregate, sort and limit runs in Go over the whole collection, and
 * the indexes `createIndexes` makes are on an expression no query uses. So on every path whose
 * cost must not grow with what is stored, a document is read or deleted by an `_id` the reader
 * can compute, through these functions, and everything written concurrently is an insert with
 * such an id (writes.ts). Real MongoDB answers the same calls from its `_id` index.
 */
import type { mongo } from 'mongoose';

type WithId = { _id: string };

/** The document with this `_id` (only the fields of `projection`, when given), or null. */
export function byId<T extends WithId>(
  model: { collection: unknown },
  id: string,
  projection?: Partial<Record<keyof T, 1>>,
): Promise<T | null> {
  const collection = model.collection as mongo.Collection<T>;
  return collection.findOne({ _id: id } as mongo.Filter<T>, projection ? { projection } : {}) as Promise<T | null>;
}

/** Deletes the document with this `_id`. */
export async function deleteById(model: { collection: unknown }, id: string): Promise<void> {
  await (model.collection as mongo.Collection<WithId>).deleteOne({ _id: id });
}
