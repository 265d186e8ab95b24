/**
 * Stored documents (MongoDB through mongoose). Everything here works on real MongoDB and on
 * FerretDB v1: no transactions, and sender-controlled JSON (trigger data, step templates and
 * outputs) is stored as JSON text, because FerretDB refuses keys with `.` or a leading `$` and
 * nested arrays in documents.
 *
 * What a run writes is insert-only, with deterministic ids: FerretDB v1 on SQLite scans the
 * whole collection for every query or update (its `_id` index is never used by queries), while
 * an insert costs the same however large the collection is. So a run is its stored document
 * (written once, when the delivery is prepared), one step result per step and one outcome; a
 * retried activity meets a duplicate key and leaves the first write as it is.
 */
import mongoose, { Schema, type Connection, type mongo } from 'mongoose';
import type { StoredJson } from './blobs';
import { historySchemas } from './history/documents';
import {
  BODY_FORMATS,
  type BodyFormat,
  type DeliveryOutcome,
  type RobotState,
  type RunOutcomeStatus,
  type StepDefinition,
  type StepStatus,
  type TriggerKind,
} from './domain/types';

export interface AppDoc {
  _id: string;
  name: string;
  supportsInboundTrigger: boolean;
  bodyFormat: BodyFormat;
  createdAt: Date;
}

export interface ConnectionDoc {
  _id: string;
  provider: 'stripe';
  name: string;
  signingSecretSealed: string | null;
  createdAt: Date;
}

export interface RobotDoc {
  _id: string;
  name: string;
  state: RobotState;
  trigger: {
    kind: TriggerKind;
    appId: string | null;
    connectionId: string | null;
    events?: string[];
    identifier: string | null;
    token: string | null;
  };
  steps: StepDefinition[];
  createdAt: Date;
}

export interface DeliveryDoc {
  _id: string;
  robotId: string;
  triggerIdentifier: string;
  workflowId: string | null;
  dedupKey: string;
  receivedAt: Date;
  format: BodyFormat;
  contentType: string | null;
  size: number;
  outcome: DeliveryOutcome;
  runCount: number;
  reason: string | null;
  error: string | null;
  verified: boolean | null;
  /** The delivery's place in its robot's history (src/history/slots.ts). */
  slot: number;
  /** Steps the robot had when the delivery was prepared: its runs' step results are `<runId>:<0…stepCount-1>`. */
  stepCount: number;
  /** Trigger previews of its first runs (the first page), as JSON text of `(string | null)[]`. */
  previewsJson: string;
}

/** A run as it starts: what triggered it. Never changed after it is written. */
export interface RunDoc {
  _id: string;
  robotId: string;
  deliveryId: string;
  index: number;
  /** The trigger data as JSON text (large data in blob chunks under triggerBlobId). */
  trigger: StoredJson;
  verified: boolean | null;
  createdAt: Date;
}

/** The result of one step of a run; `_id` is `<runId>:<step index>`. */
export interface StepResultDoc {
  _id: string;
  runId: string;
  index: number;
  name: string;
  status: Exclude<StepStatus, 'pending'>;
  /** The output as JSON text (large output in blob chunks under outputBlobId), when it succeeded. */
  output?: StoredJson;
  error?: string;
}

/** How a run ended; `_id` is the run's id. A run without one is still running. */
export interface RunOutcomeDoc {
  _id: string;
  robotId: string;
  status: RunOutcomeStatus;
  finishedAt: Date;
}

/** One chunk of a blob (src/blobs.ts); `_id` is `<owner id>:<n>`. */
export interface BlobChunkDoc {
  _id: string;
  ownerId: string;
  n: number;
  data: Buffer;
}

/**
 * A stored body whose delivery's start failed without a clear answer (src/receiver/body-sweep.ts):
 * the workflow may or may not exist. `_id` is the delivery's id.
 */
export interface UnconfirmedBodyDoc {
  _id: string;
  workflowId: string;
  chunks: number;
  at: Date;
}

const opts = { versionKey: false as const, _id: false as const };

const appSchema = new Schema<AppDoc>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    supportsInboundTrigger: { type: Boolean, required: true },
    bodyFormat: { type: String, enum: BODY_FORMATS, required: true },
    createdAt: { type: Date, required: true },
  },
  { ...opts, collection: 'apps' },
);

const connectionSchema = new Schema<ConnectionDoc>(
  {
    _id: { type: String, required: true },
    provider: { type: String, enum: ['stripe'], required: true },
    name: { type: String, required: true },
    /** AES-256-GCM sealed with SECRETS_KEY; never returned by any route. */
    signingSecretSealed: { type: String, default: null },
    createdAt: { type: Date, required: true },
  },
  { ...opts, collection: 'connections' },
);

const stepDefinitionSchema = new Schema<StepDefinition>(
  {
    name: { type: String, required: true },
    type: { type: String, required: true },
    templateJson: { type: String, required: true },
  },
  opts,
);

const robotSchema = new Schema<RobotDoc>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    state: { type: String, enum: ['draft', 'at_work', 'stopped'], required: true },
    trigger: {
      kind: { type: String, enum: ['custom', 'stripe'], required: true },
      appId: { type: String, default: null },
      connectionId: { type: String, default: null },
      events: { type: [String], default: undefined },
      /** `custom:<uuid>` or `stripe:<uuid>`; set when the robot is first put to work. */
      identifier: { type: String, default: null },
      token: { type: String, default: null },
    },
    steps: { type: [stepDefinitionSchema], required: true },
    createdAt: { type: Date, required: true },
  },
  { ...opts, collection: 'robots' },
);
robotSchema.index({ 'trigger.identifier': 1 });

const deliverySchema = new Schema<DeliveryDoc>(
  {
    _id: { type: String, required: true },
    robotId: { type: String, required: true },
    triggerIdentifier: { type: String, required: true },
    workflowId: { type: String, default: null },
    dedupKey: { type: String, required: true },
    receivedAt: { type: Date, required: true },
    format: { type: String, required: true },
    contentType: { type: String, default: null },
    size: { type: Number, required: true },
    outcome: { type: String, enum: ['processed', 'dropped', 'rejected', 'failed'], required: true },
    runCount: { type: Number, default: 0 },
    reason: { type: String, default: null },
    error: { type: String, default: null },
    verified: { type: Boolean, default: null },
    slot: { type: Number, required: true },
    stepCount: { type: Number, default: 0 },
    previewsJson: { type: String, default: '[]' },
  },
  { ...opts, collection: 'deliveries' },
);

const storedJsonSchema = new Schema<{ json?: string; chunks?: number }>(
  { json: { type: String, default: undefined }, chunks: { type: Number, default: undefined } },
  opts,
);

const runSchema = new Schema<RunDoc>(
  {
    _id: { type: String, required: true },
    robotId: { type: String, required: true },
    deliveryId: { type: String, required: true },
    index: { type: Number, required: true },
    trigger: { type: storedJsonSchema, required: true },
    verified: { type: Boolean, default: null },
    createdAt: { type: Date, required: true },
  },
  { ...opts, collection: 'runs' },
);

const stepResultSchema = new Schema<StepResultDoc>(
  {
    _id: { type: String, required: true },
    runId: { type: String, required: true },
    index: { type: Number, required: true },
    name: { type: String, required: true },
    status: { type: String, enum: ['succeeded', 'failed'], required: true },
    output: { type: storedJsonSchema, default: undefined },
    error: { type: String, default: undefined },
  },
  { ...opts, collection: 'step_results' },
);

const runOutcomeSchema = new Schema<RunOutcomeDoc>(
  {
    _id: { type: String, required: true },
    robotId: { type: String, required: true },
    status: { type: String, enum: ['succeeded', 'failed'], required: true },
    finishedAt: { type: Date, required: true },
  },
  { ...opts, collection: 'run_outcomes' },
);

const blobChunkSchema = new Schema<BlobChunkDoc>(
  {
    _id: { type: String, required: true },
    ownerId: { type: String, required: true },
    n: { type: Number, required: true },
    data: { type: Buffer, required: true },
  },
  { ...opts, collection: 'blob_chunks' },
);

const unconfirmedBodySchema = new Schema<UnconfirmedBodyDoc>(
  {
    _id: { type: String, required: true },
    workflowId: { type: String, required: true },
    chunks: { type: Number, required: true },
    at: { type: Date, required: true },
  },
  { ...opts, collection: 'unconfirmed_bodies' },
);

export function createModels(db: Connection) {
  return {
    App: db.model<AppDoc>('App', appSchema),
    Connection: db.model<ConnectionDoc>('Connection', connectionSchema),
    Robot: db.model<RobotDoc>('Robot', robotSchema),
    Delivery: db.model<DeliveryDoc>('Delivery', deliverySchema),
    Run: db.model<RunDoc>('Run', runSchema),
    StepResult: db.model<StepResultDoc>('StepResult', stepResultSchema),
    RunOutcome: db.model<RunOutcomeDoc>('RunOutcome', runOutcomeSchema),
    BlobChunk: db.model<BlobChunkDoc>('BlobChunk', blobChunkSchema),
    UnconfirmedBody: db.model<UnconfirmedBodyDoc>('UnconfirmedBody', unconfirmedBodySchema),
    HistorySlot: db.model('HistorySlot', historySchemas.slot),
    HistoryTally: db.model('HistoryTally', historySchemas.tally),
    HistoryHead: db.model('HistoryHead', historySchemas.head),
    HistoryBlock: db.model('HistoryBlock', historySchemas.block),
    RunPreview: db.model('RunPreview', historySchemas.runPreview),
    Lease: db.model('Lease', historySchemas.lease),
  };
}
export type Models = ReturnType<typeof createModels>;

const TRANSIENT = /SQLITE_BUSY|database is locked|ECONNREFUSED|server selection|topology/i;

/**
 * Connects and creates collections and indexes one at a time: FerretDB's SQLite backend can
 * answer SQLITE_BUSY when several are created in parallel (by two processes starting at once),
 * so each step is retried briefly.
 */
export async function connectDatabase(uri: string): Promise<{ db: Connection; models: Models }> {
  const db = mongoose.createConnection(uri, { autoIndex: false, autoCreate: false, serverSelectionTimeoutMS: 5000 });
  await db.asPromise();
  const models = createModels(db);
  for (const model of Object.values(models)) {
    for (let attempt = 1; ; attempt++) {
      try {
        await model.createCollection().catch((err: { codeName?: string }) => {
          if (err.codeName !== 'NamespaceExists') throw err;
        });
        await model.createIndexes();
        break;
      } catch (err) {
        if (attempt >= 20 || !TRANSIENT.test(String(err))) throw err;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  }
  return { db, models };
}

export function isDuplicateKeyError(err: unknown): boolean {
  return (err as { code?: number })?.code === 11000;
}

/**
 * Inserts documents with deterministic ids; those an earlier attempt already wrote are kept as
 * they are (a duplicate key is the expected answer to a retry, not an error).
 *
 * A duplicate counts only once the documents are found: FerretDB v1 can answer "duplicate key"
 * for an insert it never stored (seen right after it restarts), and trusting that answer lost
 * runs in the fault tests. The check is a read, but only on this rare path.
 */
export async function insertOnce<T extends { _id: string }>(model: mongoose.Model<T>, docs: T[]): Promise<void> {
  if (docs.length === 0) return;
  const collection = rawCollection(model);
  try {
    await collection.insertMany(docs as mongo.OptionalUnlessRequiredId<T>[], { ordered: false });
  } catch (err) {
    const writeErrors = (err as { writeErrors?: unknown[] }).writeErrors ?? [err];
    if (!writeErrors.every(isDuplicateKeyError)) throw err;
    // One read per id: `{ _id: value }` is the only filter FerretDB hands to SQLite.
    const found = await Promise.all(
      docs.map((d) => collection.findOne({ _id: d._id } as mongo.Filter<T>, { projection: { _id: 1 } })),
    );
    const missing = found.filter((doc) => doc === null).length;
    if (missing > 0) {
      throw new Error(
        `${model.collection.name}: ${missing} insert(s) answered "duplicate key" but are not stored; retrying`,
        { cause: err },
      );
    }
  }
}

/** Inserts of one collection, written together: see groupInserts. */
export type GroupedInsert<T> = (docs: T[]) => Promise<void>;

/**
 * Group commit for one collection: an insert goes out at once when none is in flight; those
 * that arrive meanwhile wait and go out together in one `insertMany` (up to `maxDocs`
 * documents), so concurrent runs share database round trips and, on FerretDB, SQLite
 * transactions. Each caller's promise settles once its own documents are stored. If a grouped
 * write fails (a retry meeting its earlier insert, a lost connection), every caller's documents
 * go through insertOnce on their own, so one caller's error never becomes another's.
 */
export function groupInserts<T extends { _id: string }>(model: mongoose.Model<T>, maxDocs = 500): GroupedInsert<T> {
  type Waiter = { docs: T[]; resolve: () => void; reject: (err: unknown) => void };
  const waiting: Waiter[] = [];
  let writing = false;

  async function writeGroup(group: Waiter[]): Promise<void> {
    try {
      await rawCollection(model).insertMany(group.flatMap((w) => w.docs) as mongo.OptionalUnlessRequiredId<T>[], {
        ordered: false,
      });
      for (const w of group) w.resolve();
    } catch {
      await Promise.all(group.map((w) => insertOnce(model, w.docs).then(w.resolve, w.reject)));
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
    if (docs.length === 0) return Promise.resolve();
    const stored = new Promise<void>((resolve, reject) => waiting.push({ docs, resolve, reject }));
    if (!writing) void writeAll();
    return stored;
  };
}

/** The driver's collection under a model, typed with its stored document (for bulk writes). */
export function rawCollection<T extends { _id: string }>(model: mongoose.Model<T>): mongo.Collection<T> {
  return model.collection as unknown as mongo.Collection<T>;
}
