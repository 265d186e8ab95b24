/**
 * The seeds of later runs of a CSV delivery, batch by batch, as the delivery workflow starts them.
 * A worker keeps where the delivery's last batch left its CSV (for CSV_CURSORS deliveries) and goes
 * on from there; else it reads the CSV from its start.
 */
import { csvRows } from '../domain/body-formats';
import { runIdFor } from '../domain/ids';
import { CSV_CURSORS, HEARTBEAT_ROWS } from '../domain/limits';
import type { DeliveryInput, RunSeed } from '../domain/types';
import type { Models } from '../storage/models';
import { bodyBytes } from './body';
import type { Progress } from './progress';
import { SeedBatch, seedOf } from './seeds';
import { admitted, type DeliveryRules } from './rules';

/** Where the last batch of a delivery left its CSV. */
interface CsvCursor {
  rows: AsyncGenerator<Record<string, string>, void, undefined>;
  /** Index (among the rows the rules let through) of the next row `rows` (or `held`) gives. */
  next: number;
  /** A row read but not used: it did not fit in the last batch. */
  held?: Record<string, string>;
}

export class CsvRunSeeds {
  private readonly cursors = new Map<string, CsvCursor>();

  constructor(
    private readonly models: Models,
    private readonly rules: DeliveryRules,
  ) {}

  /** The seeds of runs `from` up to `to` (fewer when their data is large). */
  async between(delivery: DeliveryInput, from: number, to: number, progress: Progress): Promise<RunSeed[]> {
    const { cursors } = this;
    let cursor = cursors.get(delivery.deliveryId);
    if (!cursor || cursor.next > from) {
      // The rows its trigger rules let through, as preparing stored them (./rules.ts): run n is the n-th of these.
      const rows = csvRows(await bodyBytes(delivery, this.models, progress));
      const admission = {
        rules: await this.rules.of(delivery),
        headers: delivery.headers ?? {},
        beat: () => progress.beat(),
      };
      cursor = { rows: admitted(rows, admission), next: 0 };
    }
    cursors.delete(delivery.deliveryId); // re-inserted last: the map keeps the newest last
    const batch = new SeedBatch(to - from);
    let ended = false;
    for (;;) {
      const row = cursor.held ?? (await cursor.rows.next()).value;
      cursor.held = undefined;
      if (!row) {
        ended = true;
        break;
      }
      const runId = runIdFor(delivery.deliveryId, cursor.next);
      if (cursor.next >= from && !batch.offer(seedOf(runId, JSON.stringify(row), row))) {
        cursor.held = row;
        break;
      }
      cursor.next++;
      if (cursor.next % HEARTBEAT_ROWS === 0) progress.beat();
    }
    // A CSV read to its end is let go at once (its body may be 32 MiB): its runs have all been seeded.
    if (ended) return batch.seeds;
    cursors.set(delivery.deliveryId, cursor);
    if (cursors.size > CSV_CURSORS) cursors.delete(cursors.keys().next().value!);
    return batch.seeds;
  }

  /** Forgets a delivery whose runs have all started. */
  forget(deliveryId: string): void {
    this.cursors.delete(deliveryId);
  }
}
