/**
 * The seeds of later runs of a CSV delivery, batch by batch, as the delivery workflow starts them.
 * A worker remembers where each delivery's last batch stopped in its CSV (its place: byte offsets,
 * for CSV_PLACES deliveries at once) and reads the next batch from there: only the header row and
 * the rows after the place are parsed (and, for a stored body, only the chunks they are in), so
 * every batch costs what it seeds, however many CSVs fan out on the worker at once. A delivery it
 * has no place for (a batch that ran on another worker, a restart) is read from its first row.
 */
import { csvRowsFrom, type CsvPlace, type PlacedRow } from '../domain/body-formats';
import { runIdFor } from '../domain/ids';
import { CSV_PLACES, HEARTBEAT_ROWS } from '../domain/limits';
import type { DeliveryInput, RunSeed } from '../domain/types';
import type { Models } from '../storage/models';
import { bodyBytesFrom } from './body';
import type { Progress } from './progress';
import { SeedBatch, seedOf } from './seeds';
import { admitted, type DeliveryRules } from './rules';

/** Where the last batch of a delivery stopped: the index of its next run and where that run's row is. */
interface Place extends CsvPlace {
  next: number;
}

export class CsvRunSeeds {
  private readonly places = new Map<string, Place>();

  constructor(
    private readonly models: Models,
    private readonly rules: DeliveryRules,
  ) {}

  /** The seeds of runs `from` up to `to` (fewer when their data is large). */
  async between(delivery: DeliveryInput, from: number, to: number, progress: Progress): Promise<RunSeed[]> {
    const { deliveryId } = delivery;
    const known = this.places.get(deliveryId);
    // A place past `from` (a batch retried) is of no use: the rows before it are read again.
    const place = known && known.next <= from ? known : null;
    this.places.delete(deliveryId); // set again last: the map keeps the newest last
    const placed = csvRowsFrom((start) => bodyBytesFrom(delivery, this.models, start, progress), place);
    // The rows its trigger rules let through, as preparing stored them (./rules.ts): run n is the n-th of these.
    const admission = {
      rules: await this.rules.of(delivery),
      headers: delivery.headers ?? {},
      beat: () => progress.beat(),
    };
    const batch = new SeedBatch(to - from);
    let next = place?.next ?? 0;
    let reached: CsvPlace | null = place;
    for await (const { row, place: after } of admitted<PlacedRow>(placed, admission, (p) => p.row)) {
      if (next >= from && !batch.offer(seedOf(runIdFor(deliveryId, next), JSON.stringify(row), row))) {
        // Not taken: the next batch starts at this row.
        this.places.set(deliveryId, { next, ...reached! });
        if (this.places.size > CSV_PLACES) this.places.delete(this.places.keys().next().value!);
        return batch.seeds;
      }
      next++;
      reached = after;
      if (next % HEARTBEAT_ROWS === 0) progress.beat();
    }
    // Read to its end: every run has its seed, and nothing is remembered.
    return batch.seeds;
  }
}
