/**
 * Recording a delivery: every delivery (processed, dropped, failed or rejected) is stored through
 * `DeliveryRecorder.record`, which gives it the next **slot** of its robot and then writes its
 * record. The slot is its place in the robot's history; the history keeper takes slots in order.
 *
 * Slots are claimed by insert, the one write that is atomic on FerretDB v1 as on MongoDB (an update
 * there is a read and a write, so two writers can lose each other's change). A retried activity may
 * claim a second slot before its record is written; the record names the slot that counts, and the
 * keeper skips a slot whose delivery's record names another. Claims are never removed while their
 * slot is in use: retention removes them with their entries, and only below the stored tally's next
 * slot, and only RETENTION_SLOT_LAG_MS after it was stored. From there the claimed slots stay a
 * prefix, which `firstFree` relies on, so a slot the keeper has passed is never claimed again. Nor
 * by a recorder that remembers where it stopped: it trusts that for SLOT_HINT_MS only, far less than
 * the lag, since the slot may have been claimed elsewhere and passed by the keeper since.
 *
 * Once its slot is claimed, the recorder marks the robot (marks.ts) while it writes the record, so
 * the keeper, in whatever process, looks at the robot within a second.
 *
 * A delivery that failed (refused, failed) is counted in its issue (src/issues/counter.ts) once its
 * record is stored, never by an attempt that found it stored: a retry does not count it again.
 *
 * A claim counts only when the store answered for it: stored, or refused as a duplicate key
 * (`duplicatePositions`). A connection lost during the insert fails the whole batch, whatever of
 * it was stored: each delivery's attempt is retried and claims again (docs/storage.md).
 */
import { duplicatePositions, insertOnce, insertOptions, rawCollection, type GroupedInsert } from '../storage/writes';
import { type DeliveryDoc } from '../storage/documents';
import { type Models } from '../storage/models';
import { readTally, slotId } from './store';
import { byId } from '../storage/by-id';
import type { SlotDoc } from '../storage/history-documents';
import { RobotMarks } from './marks';
import { SLOT_HINT_MS } from '../domain/limits';
import { performance } from 'node:perf_hooks';
import type { IssueCause } from '../domain/issues';
import type { IssueCounter } from '../issues/counter';
import type { HeardRecords } from './heard-records';

interface Waiter {
  deliveryId: string;
  resolve: (slot: number) => void;
  reject: (err: unknown) => void;
}

export type NewDelivery = Omit<DeliveryDoc, 'slot'>;

/** The issue a failed delivery counts in: its cause, in its robot's workspace. */
export type DeliveryIssue = IssueCause & { workspaceId: string };

/** A slot the recorder expects free, and when it learnt that (its clock's ms). */
interface SlotHint {
  slot: number;
  at: number;
}

export class DeliveryRecorder {
  /** The next slot to try, per robot, while younger than SLOT_HINT_MS: claims from one process rarely collide. */
  private readonly next = new Map<string, SlotHint>();
  private readonly waiting = new Map<string, Waiter[]>();
  private readonly marks: RobotMarks;

  private readonly insertDelivery: GroupedInsert<DeliveryDoc>;
  private readonly now: () => number;
  private readonly issues: IssueCounter | undefined;
  private readonly heard: HeardRecords | undefined;

  /**
   * `insertDelivery` writes the records (the worker groups them); `now` is the clock of the slot hints
   * (monotonic); `issues` the process's issue counter (none: failures are not counted); `heard` this
   * worker's history keeper's ear (./heard-records.ts: a record stored here is not read back).
   */
  constructor(
    private readonly models: Models,
    options: {
      insertDelivery?: GroupedInsert<DeliveryDoc>;
      now?: () => number;
      issues?: IssueCounter;
      heard?: HeardRecords;
    } = {},
  ) {
    this.insertDelivery = options.insertDelivery ?? ((docs) => insertOnce(models.Delivery, docs));
    this.now = options.now ?? (() => performance.now());
    this.marks = new RobotMarks(models);
    this.issues = options.issues;
    this.heard = options.heard;
  }

  /**
   * Claims the delivery's slot and stores its record, and marks the robot for the keeper; a record
   * already stored is kept as it is (and marked again: the attempt that stored it may have died first).
   * A failed one then counts in its `issue`, unless an earlier attempt stored it.
   */
  async record(
    delivery: NewDelivery,
    { retry = false, issue }: { retry?: boolean; issue?: DeliveryIssue } = {},
  ): Promise<void> {
    if (retry && (await byId(this.models.Delivery, delivery._id))) return this.marks.mark(delivery.robotId);
    const slot = await this.claim(delivery.robotId, delivery._id);
    const doc = { ...delivery, slot };
    const [stored] = await Promise.all([this.insertDelivery([doc]), this.marks.mark(delivery.robotId)]);
    if (stored) this.heard?.heard(doc);
    if (issue) {
      const { robotId, _id: deliveryId, receivedAt: at } = delivery;
      this.issues?.hit({ ...issue, robotId, deliveryId, at });
    }
  }

  /** Concurrent claims of one robot go out together: one insertMany of consecutive slots. */
  private claim(robotId: string, deliveryId: string): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const queue = this.waiting.get(robotId);
      if (queue) return queue.push({ deliveryId, resolve, reject });
      this.waiting.set(robotId, [{ deliveryId, resolve, reject }]);
      void this.drain(robotId);
    });
  }

  private async drain(robotId: string): Promise<void> {
    const queue = this.waiting.get(robotId)!;
    let batch: Waiter[] = [];
    try {
      while (queue.length > 0) {
        batch = queue.splice(0, 500);
        const first = this.hint(robotId) ?? (await this.firstFree(robotId));
        const docs: SlotDoc[] = batch.map((w, i) => ({
          _id: slotId(robotId, first + i),
          robotId,
          slot: first + i,
          deliveryId: w.deliveryId,
        }));
        this.next.set(robotId, { slot: first + batch.length, at: this.now() });
        const failed = await this.insertSlots(docs);
        for (const [i, w] of batch.entries()) {
          if (!failed.has(i)) w.resolve(first + i);
        }
        if (failed.size === 0) continue;
        // Taken by another process: look whose they are (a retry may find its own), then look for the
        // first free slot again. One found free after all was removed since, behind the keeper: the
        // search starts at the keeper's next slot, so it is not claimed again.
        for (const i of failed) {
          const taken = await byId<SlotDoc>(this.models.HistorySlot, docs[i]._id);
          if (taken?.deliveryId === batch[i].deliveryId) batch[i].resolve(taken.slot);
          else queue.push(batch[i]);
        }
        this.next.delete(robotId);
      }
    } catch (err) {
      // Settling a promise twice does nothing, so the whole batch can be rejected.
      for (const w of [...batch, ...queue.splice(0)]) w.reject(err);
      this.next.delete(robotId);
    } finally {
      this.waiting.delete(robotId);
    }
  }

  /**
   * The remembered next slot while it is younger than SLOT_HINT_MS. An older one may lie behind the
   * keeper: other processes may have claimed it since, and retention removed it
   * (RETENTION_SLOT_LAG_MS after the keeper passed it), so a claim there would never be listed.
   */
  private hint(robotId: string): number | undefined {
    const hint = this.next.get(robotId);
    if (hint && this.now() - hint.at < SLOT_HINT_MS) return hint.slot;
    this.next.delete(robotId);
    return undefined;
  }

  /** Inserts the slots; returns the positions that were already taken. Any other failure is thrown. */
  private async insertSlots(docs: SlotDoc[]): Promise<Set<number>> {
    try {
      await rawCollection(this.models.HistorySlot).insertMany(docs, insertOptions());
      return new Set();
    } catch (err) {
      const taken = duplicatePositions(err, docs.length);
      if (!taken) throw err;
      return taken;
    }
  }

  /**
   * The first free slot: from where the tally stands, doubling steps until a free slot, then
   * halving back (claimed slots are always a prefix, since each claim follows a taken slot).
   */
  private async firstFree(robotId: string): Promise<number> {
    const taken = async (n: number) => (await byId(this.models.HistorySlot, slotId(robotId, n))) !== null;
    let low = (await readTally(this.models, robotId)).state.nextSlot; // every slot below is taken
    if (!(await taken(low))) return low;
    let step = 1;
    while (await taken(low + step)) {
      low += step;
      step *= 2;
    }
    let high = low + step; // free
    while (high - low > 1) {
      const mid = Math.floor((low + high) / 2);
      if (await taken(mid)) low = mid;
      else high = mid;
    }
    return high;
  }
}
