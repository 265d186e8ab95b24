/**
 * A robot's tally: its exact counts and how far its history has been built. Pure data and pure
 * functions; the history keeper (keeper.ts) moves it forward and stores each version.
 *
 * Order: deliveries are taken in slot order and numbered 0, 1, 2… (their **entry** number); the
 * runs of each taken delivery get the next run numbers (**ordinals**), in row order. Pages list
 * entries and ordinals from the newest down. A run is **placed** once its summary is in its block;
 * placed ordinals are always the prefix `[firstRun, placedThrough)`, and the counts are over
 * exactly those runs, so a robot's counts always equal the runs its pages list.
 */
import { DELIVERY_OUTCOMES, type DeliveryOutcome, type RunStatus } from '../domain/types';
import { BLOCK_SIZE, PREVIEW_BYTES } from '../domain/limits';

/** Index ranges `[from, to)` of a delivery's runs. */
export type Ranges = Array<[number, number]>;

/** A taken delivery whose runs are not all placed, or not all finished. */
export interface OpenDelivery {
  deliveryId: string;
  /** Entry number of the delivery. */
  entry: number;
  /** Ordinal of its first run. */
  base: number;
  runCount: number;
  /** Runs `[0, placed)` are placed. */
  placed: number;
  /** Placed runs without an outcome yet. */
  unfinished: Ranges;
}

export interface TallyState {
  /** Slots below this have been looked at. */
  nextSlot: number;
  /** Claimed slots whose delivery record was not written yet (its activity is still at work). */
  pendingSlots: number[];
  /** Entries `[firstEntry, entries)` are kept. */
  firstEntry: number;
  entries: number;
  /** Ordinals given to runs so far; `[firstRun, placedThrough)` are listed and counted. */
  ordinals: number;
  firstRun: number;
  placedThrough: number;
  succeeded: number;
  failed: number;
  deliveries: Record<DeliveryOutcome, number>;
  lastDeliveryAt: string | null;
  open: OpenDelivery[];
}

/**
 * No delivery of any outcome. A tally stored before an outcome existed (`handshake`, 0.5) has no
 * count of it: counts are read and moved through `deliveryCounts` and `countDelivery`.
 */
const emptyDeliveryCounts = (): Record<DeliveryOutcome, number> =>
  Object.fromEntries(DELIVERY_OUTCOMES.map((o) => [o, 0])) as Record<DeliveryOutcome, number>;

/** The tally's counts, every outcome present. */
export const deliveryCounts = (t: TallyState): Record<DeliveryOutcome, number> => ({
  ...emptyDeliveryCounts(),
  ...t.deliveries,
});

/** One more (or, with -1, one fewer) delivery of the outcome. */
export function countDelivery(t: TallyState, outcome: DeliveryOutcome, by: 1 | -1): void {
  t.deliveries[outcome] = (t.deliveries[outcome] ?? 0) + by;
}

export function emptyTally(): TallyState {
  return {
    nextSlot: 0,
    pendingSlots: [],
    firstEntry: 0,
    entries: 0,
    ordinals: 0,
    firstRun: 0,
    placedThrough: 0,
    succeeded: 0,
    failed: 0,
    deliveries: emptyDeliveryCounts(),
    lastDeliveryAt: null,
    open: [],
  };
}

export interface RunCounts {
  total: number;
  running: number;
  succeeded: number;
  failed: number;
}

export function runCountsOf(t: TallyState): RunCounts {
  const total = t.placedThrough - t.firstRun;
  return { total, running: total - t.succeeded - t.failed, succeeded: t.succeeded, failed: t.failed };
}

/** A run as the run history lists it (one item of a run block). */
export interface RunSummary {
  id: string;
  deliveryId: string;
  status: RunStatus;
  /** When its delivery was received. */
  createdAt: string;
  finishedAt: string | null;
  /** The trigger data as JSON text when it is at most PREVIEW_BYTES, else null. */
  trigger: string | null;
  /** A run of a test delivery. */
  test?: true;
}

export function previewOf(triggerJson: string): string | null {
  return Buffer.byteLength(triggerJson) <= PREVIEW_BYTES ? triggerJson : null;
}

export const blockOf = (n: number) => Math.floor(n / BLOCK_SIZE);

/** Adds `[from, to)` to sorted, disjoint ranges (merging a range that ends where it starts). */
export function addRange(ranges: Ranges, from: number, to: number): void {
  if (from >= to) return;
  const last = ranges[ranges.length - 1];
  if (last && last[1] === from) last[1] = to;
  else ranges.push([from, to]);
}

/** Removes one index from sorted, disjoint ranges; false when it was not in them. */
export function removeIndex(ranges: Ranges, i: number): boolean {
  const at = ranges.findIndex(([from, to]) => i >= from && i < to);
  if (at === -1) return false;
  const [from, to] = ranges[at];
  const parts: Ranges = [];
  if (from < i) parts.push([from, i]);
  if (i + 1 < to) parts.push([i + 1, to]);
  ranges.splice(at, 1, ...parts);
  return true;
}
