/**
 * A robot's tally as the keeper holds it while moving it forward: the state, the blocks it has
 * changed, and `commit`, which stores them: blocks first, then the next tally version. Readers
 * list only what a tally version covers, so they never see half of a step.
 */
import type { DeliveryDoc } from '../storage/documents';
import type { Models } from '../storage/models';
import { insertOnce, isDuplicateKeyError, rawCollection } from '../storage/writes';
import type { BlockDoc, HeadDoc, TallyDoc } from '../storage/history-documents';
import { blockId, finalBlockId, readBlocks, readTally, tallyId, type BlockKind } from './store';
import { byId, deleteById } from '../storage/by-id';
import { blockOf, type RunSummary, type TallyState } from './tally';
import { BLOCK_SIZE, RETENTION_SLOT_LAG_MS } from '../domain/limits';
import { performance } from 'node:perf_hooks';

/** A delivery as the deliveries log lists it (one item of a deliveries block). */
export type DeliveryEntry = Omit<DeliveryDoc, 'previewsJson' | 'fieldsJson' | 'requestJson'> & {
  /** Ordinal of its first run. */
  firstRun: number;
};

type Item = RunSummary | DeliveryEntry;

interface HeldBlock {
  kind: BlockKind;
  items: Array<Item | null>;
  dirty: boolean;
}

export class LiveTally {
  private readonly blocks = new Map<string, HeldBlock>();
  /** Delivery records read while taking slots, kept until their runs are placed. */
  readonly deliveryDocs = new Map<string, DeliveryDoc>();
  /** How many of the oldest unfinished runs are looked up each round. */
  window = 8;
  /** Runs (by ordinal) found unfinished: how long their pause is, and until when. */
  readonly pauses = new Map<number, { pause: number; until: number }>();
  /** When slots past an unclaimed next slot are next looked at for a hole, near and far. */
  holeProbeAt = 0;
  farProbeAt = 0;
  /** Empty slots with claimed ones after them, and since when they were seen so. */
  readonly holes = new Map<number, number>();
  /** Pending slots (claimed, no record yet), since when this keeper has waited on them (build.ts). */
  readonly pendingSince = new Map<number, number>();
  /** Where the next read of the slots waited on past the patience starts among them, and when it is due. */
  staleTurn = 0;
  staleReadAt = 0;
  /** The next slot as stored, and when (this process's monotonic clock), oldest first. */
  private readonly storedNextSlots: Array<{ at: number; nextSlot: number }> = [];

  private constructor(
    private readonly models: Models,
    readonly robotId: string,
    private v: number,
    public state: TallyState,
  ) {
    this.noteStored(); // stored at the latest when read
  }

  private noteStored(): void {
    this.storedNextSlots.push({ at: performance.now(), nextSlot: this.state.nextSlot });
    this.removableBelow(); // drops what no longer counts
  }

  /**
   * Below which slot retention may remove (retention.ts): the next slot the stored tally had at
   * least RETENTION_SLOT_LAG_MS ago; 0 (nothing) until this tally has been held that long.
   */
  removableBelow(): number {
    const cutoff = performance.now() - RETENTION_SLOT_LAG_MS;
    const list = this.storedNextSlots;
    while (list.length > 1 && list[1].at <= cutoff) list.shift();
    return list[0].at <= cutoff ? list[0].nextSlot : 0;
  }

  static async load(models: Models, robotId: string): Promise<LiveTally> {
    const { v, state } = await readTally(models, robotId);
    return new LiveTally(models, robotId, v, state);
  }

  async item<T extends Item>(kind: BlockKind, n: number): Promise<T | null> {
    return ((await this.block(kind, blockOf(n))).items[n % BLOCK_SIZE] as T | undefined) ?? null;
  }

  async setItem(kind: BlockKind, n: number, item: Item): Promise<void> {
    const block = await this.block(kind, blockOf(n));
    block.items[n % BLOCK_SIZE] = item;
    block.dirty = true;
  }

  async deliveryDoc(deliveryId: string): Promise<DeliveryDoc> {
    const held = this.deliveryDocs.get(deliveryId);
    if (held) return held;
    const doc = await byId<DeliveryDoc>(this.models.Delivery, deliveryId);
    if (!doc) throw new Error(`delivery ${deliveryId} of robot ${this.robotId} is taken but its record is gone`);
    this.deliveryDocs.set(deliveryId, doc);
    return doc;
  }

  private async block(kind: BlockKind, b: number): Promise<HeldBlock> {
    const id = blockId(kind, this.robotId, b);
    let block = this.blocks.get(id);
    if (!block) {
      const stored = (await readBlocks<Item>(this.models, [id])).get(id);
      block = { kind, items: stored ?? [], dirty: false };
      this.blocks.set(id, block);
    }
    return block;
  }

  get changed(): boolean {
    return [...this.blocks.values()].some((b) => b.dirty);
  }

  /**
   * Stores the changed blocks, then the next version of the tally, then moves the head. A block
   * whose items can no longer change is stored as its final copy. Returns false when another keeper
   * stored this version first: the caller drops this tally and loads the newest.
   */
  async commit(stateChanged: boolean): Promise<boolean> {
    const { HistoryBlock, HistoryTally, HistoryHead } = this.models;
    for (const [id, block] of this.blocks) {
      if (!block.dirty) continue;
      const itemsJson = JSON.stringify(block.items);
      if (this.isFinal(block)) {
        await insertOnce<BlockDoc>(HistoryBlock, [{ _id: finalBlockId(id), itemsJson }]);
        await deleteById(HistoryBlock, id);
        this.blocks.delete(id);
      } else {
        await HistoryBlock.collection.updateOne({ _id: id as never }, { $set: { itemsJson } }, { upsert: true });
        block.dirty = false;
      }
    }
    if (!stateChanged) return true;
    const v = this.v + 1;
    try {
      await rawCollection<TallyDoc>(HistoryTally).insertOne({
        _id: tallyId(this.robotId, v),
        robotId: this.robotId,
        v,
        stateJson: JSON.stringify(this.state),
      });
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
    await rawCollection<HeadDoc>(HistoryHead).updateOne({ _id: this.robotId }, { $set: { v } }, { upsert: true });
    // The version before stays for readers that read the head just before it moved.
    if (v > 2) await deleteById(HistoryTally, tallyId(this.robotId, v - 2));
    this.v = v;
    this.noteStored();
    return true;
  }

  /** Full, and (runs) every run finished: nothing in it will change again but removal. */
  private isFinal(block: HeldBlock): boolean {
    if (block.items.length < BLOCK_SIZE || block.items.some((i) => i === undefined)) return false;
    return (
      block.kind === 'deliveries' || block.items.every((i) => i === null || (i as RunSummary).status !== 'running')
    );
  }

  /** Forgets blocks below the given ones (removed by retention, or final and not needed). */
  forgetBlocks(kind: BlockKind, below: number): void {
    for (const [id, block] of this.blocks) {
      if (block.kind === kind && !block.dirty && Number(id.slice(id.lastIndexOf(':') + 1)) < below)
        this.blocks.delete(id);
    }
  }

  /** Drops blocks held in memory that are final or not dirty, to bound memory. */
  trim(): void {
    if (this.blocks.size < 64) return;
    for (const [id, block] of this.blocks) if (!block.dirty) this.blocks.delete(id);
  }
}
