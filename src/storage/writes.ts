/**
 * Writes that a retry can repeat: inserts with deterministic ids, where a duplicate key is the
 * expected answer to a retry, and group commit of inserts for one collection.
 */
import { setMaxListeners } from 'node:events';
import type mongoose from 'mongoose';
import type { mongo } from 'mongoose';
import { STORE_INSERT_DEADLINE_MS } from '../domain/limits';

export function isDuplicateKeyError(err: unknown): boolean {
  return (err as { code?: number })?.code === 11000;
}

/**
 * The positions of an `insertMany`'s documents that were refused as duplicate keys, when that is
 * all that went wrong (the server answered, and inserted every other document); null for any other
 * failure. The driver reports a connection lost during an `insertMany`, or a server it cannot
 * reach, as a bulk write error whose list of write errors is empty: that says nothing about what
 * was stored. Read as "no duplicates", it once let slot claims count that were never stored, and
 * their deliveries were never listed (the FerretDB fault test, 2026-11-27; docs/storage.md).
 */
export function duplicatePositions(err: unknown, count: number): Set<number> | null {
  const { writeErrors, insertedCount } = (err ?? {}) as {
    writeErrors?: Array<{ index: number }>;
    insertedCount?: number;
  };
  if (!writeErrors?.length || !writeErrors.every(isDuplicateKeyError)) return null;
  if (insertedCount !== undefined && insertedCount + writeErrors.length !== count) return null;
  return new Set(writeErrors.map((e) => e.index));
}

/**
 * A deadline shared by the writes begun in one half of it: they share an abort signal, aborted
 * 1.5 deadlines after that half began, so each is given up between 1 and 1.5 deadlines after it
 * began. One timer and one signal per half-deadline: `AbortSignal.timeout` per insert cost
 * 10–30 µs each here (a few inserts per run).
 */
export class SharedDeadline {
  private current: { signal: AbortSignal; until: number } | null = null;

  constructor(readonly ms: number) {}

  signal(): AbortSignal {
    const now = Date.now();
    if (this.current && now < this.current.until) return this.current.signal;
    const controller = new AbortController();
    // Every write in flight listens on it: no listener count means a leak here.
    setMaxListeners(0, controller.signal);
    const reason = new Error(`the store did not answer within ${this.ms} ms`);
    setTimeout(() => controller.abort(reason), this.ms * 1.5).unref();
    this.current = { signal: controller.signal, until: now + this.ms / 2 };
    return controller.signal;
  }
}

const INSERT_DEADLINE = new SharedDeadline(STORE_INSERT_DEADLINE_MS);

/**
 * The options of every insert: unordered (one refused document does not stop the others), and
 * given up after STORE_INSERT_DEADLINE_MS. The driver honours an operation's abort signal while it
 * writes and while it waits for the answer (its types list `signal` for reads only); the one place
 * an insert could otherwise wait forever is a socket that closed while the command was being
 * written.
 */
export function insertOptions(deadline = INSERT_DEADLINE): mongo.BulkWriteOptions {
  return { ordered: false, signal: deadline.signal() } as mongo.BulkWriteOptions;
}

/**
 * Inserts documents with deterministic ids; those an earlier attempt already wrote are kept as
 * they are (a duplicate key is the expected answer to a retry, not an error). Any other failure,
 * a lost connection included, is thrown: the caller's retry writes again. Says whether this call
 * stored every one of them (false: some were there already, as an earlier attempt wrote them).
 */
export async function insertOnce<T extends { _id: string }>(
  model: mongoose.Model<T>,
  docs: T[],
  deadline = INSERT_DEADLINE,
): Promise<boolean> {
  if (docs.length === 0) return true;
  try {
    await rawCollection(model).insertMany(docs as mongo.OptionalUnlessRequiredId<T>[], insertOptions(deadline));
    return true;
  } catch (err) {
    if (!duplicatePositions(err, docs.length)) throw err;
    return false;
  }
}

/**
 * Inserts one document and says whether this call stored it (true) or one with its `_id` was
 * there already (false): the only atomic claim both MongoDB and FerretDB v1 offer (FerretDB's
 * updates are a read and a write). A lost connection is thrown, never read as either.
 */
export async function claimById<T extends { _id: string }>(model: mongoose.Model<T>, doc: T): Promise<boolean> {
  try {
    await rawCollection(model).insertOne(doc as mongo.OptionalUnlessRequiredId<T>, insertOptions());
    return true;
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    return false;
  }
}

/**
 * Inserts of one collection, written together: see groupInserts. Says whether this call stored
 * every one of its documents (false: some were there already).
 */
export type GroupedInsert<T> = (docs: T[]) => Promise<boolean>;

/**
 * Group commit for one collection: an insert goes out at once when none is in flight; those
 * that arrive meanwhile wait and go out together in one `insertMany` (up to `maxDocs`
 * documents), so concurrent runs share database round trips and, on FerretDB, SQLite
 * transactions. Each caller's promise settles once its own documents are stored. If a grouped
 * write fails (a retry meeting its earlier insert, a lost connection), every caller's documents
 * go through insertOnce on their own, so one caller's error never becomes another's; nor does a
 * write that never ends hold the callers behind it past STORE_INSERT_DEADLINE_MS (`deadline`).
 */
export function groupInserts<T extends { _id: string }>(
  model: mongoose.Model<T>,
  maxDocs = 500,
  deadline = INSERT_DEADLINE,
): GroupedInsert<T> {
  type Waiter = { docs: T[]; resolve: (stored: boolean) => void; reject: (err: unknown) => void };
  const waiting: Waiter[] = [];
  let writing = false;

  async function writeGroup(group: Waiter[]): Promise<void> {
    try {
      const docs = group.flatMap((w) => w.docs) as mongo.OptionalUnlessRequiredId<T>[];
      await rawCollection(model).insertMany(docs, insertOptions(deadline));
      for (const w of group) w.resolve(true);
    } catch {
      await Promise.all(group.map((w) => insertOnce(model, w.docs, deadline).then(w.resolve, w.reject)));
    }
  }

  async function writeAll(): Promise<void> {
    writing = true;
    try {
      while (waiting.length > 0) {
        let count = 0;
        const over = waiting.findIndex((w) => (count += w.docs.length) > maxDocs);
        await writeGroup(waiting.splice(0, Math.max(1, over === -1 ? waiting.length : over)));
      }
    } finally {
      writing = false;
    }
  }

  return (docs) => {
    if (docs.length === 0) return Promise.resolve(true);
    const stored = new Promise<boolean>((resolve, reject) => waiting.push({ docs, resolve, reject }));
    if (!writing) void writeAll();
    return stored;
  };
}

/** The driver's collection under a model, typed with its stored document (for bulk writes). */
export function rawCollection<T extends { _id: string }>(model: mongoose.Model<T>): mongo.Collection<T> {
  return model.collection as unknown as mongo.Collection<T>;
}
