/**
 * The documents of a robot's history: what the run history and the deliveries log are read from.
 *
 * Every history document has an `_id` a reader can compute (the FerretDB rule, storage/by-id.ts),
 * so a page is a handful of reads by `_id` whatever is stored (docs/storage.md):
 *
 * - a **slot** (`<robotId>:<n>`) gives each delivery of a robot its place, claimed by insert;
 * - the **tally** (`<robotId>:<version>`, newest version named by the robot's **head**) holds the
 *   robot's exact counts and how far the history has been built; the history keeper writes it;
 * - **blocks** (`runs:<robotId>:<b>`, `deliveries:<robotId>:<b>`) hold 50 runs or deliveries each,
 *   in history order; a block whose items can no longer change is also stored as `<id>:final`;
 * - **run previews** (`<deliveryId>:<page>`) hold the trigger data of 50 runs of a delivery, small
 *   enough to list, written with the runs;
 * - a **mark** (`<robotId>`) tells the history keeper the robot has a new delivery (history/marks.ts).
 */
import { Schema, type Connection } from 'mongoose';

export interface SlotDoc {
  _id: string;
  robotId: string;
  slot: number;
  deliveryId: string;
}

export interface TallyDoc {
  _id: string;
  robotId: string;
  v: number;
  /** The TallyState (src/history/tally.ts) as JSON text: it holds nested arrays, which FerretDB refuses. */
  stateJson: string;
}

export interface HeadDoc {
  _id: string;
  v: number;
}

export interface BlockDoc {
  _id: string;
  /** The block's items as JSON text (trigger previews may hold any key). */
  itemsJson: string;
}

export interface RunPreviewDoc {
  _id: string;
  /** For each run of the page: its trigger data as JSON text when small enough to list, else null. */
  previewsJson: string;
}

export interface LeaseDoc {
  _id: string;
  holder: string;
  expiresAt: Date;
}

export interface MarkDoc {
  _id: string;
  /** When it was made (for an operator reading the collection; the keeper reads only `_id`). */
  at: Date;
}

const opts = { versionKey: false as const, _id: false as const };

export const historySchemas = {
  slot: new Schema<SlotDoc>(
    {
      _id: { type: String, required: true },
      robotId: { type: String, required: true },
      slot: { type: Number, required: true },
      deliveryId: { type: String, required: true },
    },
    { ...opts, collection: 'history_slots' },
  ),
  tally: new Schema<TallyDoc>(
    {
      _id: { type: String, required: true },
      robotId: { type: String, required: true },
      v: { type: Number, required: true },
      stateJson: { type: String, required: true },
    },
    { ...opts, collection: 'history_tallies' },
  ),
  head: new Schema<HeadDoc>(
    { _id: { type: String, required: true }, v: { type: Number, required: true } },
    { ...opts, collection: 'history_heads' },
  ),
  block: new Schema<BlockDoc>(
    { _id: { type: String, required: true }, itemsJson: { type: String, required: true } },
    { ...opts, collection: 'history_blocks' },
  ),
  runPreview: new Schema<RunPreviewDoc>(
    { _id: { type: String, required: true }, previewsJson: { type: String, required: true } },
    { ...opts, collection: 'run_previews' },
  ),
  lease: new Schema<LeaseDoc>(
    {
      _id: { type: String, required: true },
      holder: { type: String, required: true },
      expiresAt: { type: Date, required: true },
    },
    { ...opts, collection: 'leases' },
  ),
  mark: new Schema<MarkDoc>(
    { _id: { type: String, required: true }, at: { type: Date, required: true } },
    { ...opts, collection: 'history_marks' },
  ),
};

/**
 * The history's models, each typed by its document (mongoose 9 infers an `id` virtual from a schema
 * alone, which the storage helpers' `Model<T>` does not take).
 */
export function historyModels(db: Connection) {
  return {
    HistorySlot: db.model<SlotDoc>('HistorySlot', historySchemas.slot),
    HistoryTally: db.model<TallyDoc>('HistoryTally', historySchemas.tally),
    HistoryHead: db.model<HeadDoc>('HistoryHead', historySchemas.head),
    HistoryBlock: db.model<BlockDoc>('HistoryBlock', historySchemas.block),
    RunPreview: db.model<RunPreviewDoc>('RunPreview', historySchemas.runPreview),
    Lease: db.model<LeaseDoc>('Lease', historySchemas.lease),
    HistoryMark: db.model<MarkDoc>('HistoryMark', historySchemas.mark),
  };
}
