/**
 * What a person reads of a robot's history: its counts, and pages of its runs and deliveries,
 * newest first. Each is a few reads by `_id` (the tally, then one to three blocks), so it costs
 * the same with ten runs stored or ten million.
 *
 * A cursor names the item after which the next page starts (its ordinal or entry number), so a
 * page never repeats or skips an item while new ones arrive.
 */
import type { Models } from '../storage/models';
import type { DeliveryEntry } from './live-tally';
import { blockId, readBlocks, readTally, type BlockKind } from './store';
import { blockOf, deliveryCounts, runCountsOf, type RunCounts, type RunSummary, type TallyState } from './tally';
import { BLOCK_SIZE, DELIVERY_FILTER_SCAN } from '../domain/limits';
import type { DeliveryOutcome } from '../domain/types';
import { BadCursor } from '../domain/cursors';

export function encodeCursor(next: number): string {
  return Buffer.from(JSON.stringify({ before: next })).toString('base64url');
}

function decodeCursor(cursor: string): number {
  try {
    const { before } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { before?: unknown };
    if (typeof before === 'number' && Number.isSafeInteger(before) && before >= 0) return before;
  } catch {
    // not JSON: falls through
  }
  throw new BadCursor();
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface RobotHistory {
  runCounts: RunCounts;
  deliveryCounts: TallyState['deliveries'];
  lastDeliveryAt: string | null;
}

export async function robotHistory(models: Models, robotId: string): Promise<RobotHistory> {
  const { state } = await readTally(models, robotId);
  return { runCounts: runCountsOf(state), deliveryCounts: deliveryCounts(state), lastDeliveryAt: state.lastDeliveryAt };
}

/** Items `[from, to)` of the robot's blocks of this kind, newest first, each with its number. */
async function numberedDown<T>(
  models: Models,
  kind: BlockKind,
  robotId: string,
  from: number,
  to: number,
): Promise<Array<[number, T]>> {
  if (to <= from) return [];
  const ids: string[] = [];
  for (let b = blockOf(to - 1); b >= blockOf(from); b--) ids.push(blockId(kind, robotId, b));
  const blocks = await readBlocks<T>(models, ids);
  const items: Array<[number, T]> = [];
  for (let n = to - 1; n >= from; n--) {
    const item = blocks.get(blockId(kind, robotId, blockOf(n)))?.[n % BLOCK_SIZE];
    if (item) items.push([n, item]);
  }
  return items;
}

/** Items `[from, to)` of the robot's blocks of this kind, newest first. */
export async function itemsDown<T>(
  models: Models,
  kind: BlockKind,
  robotId: string,
  from: number,
  to: number,
): Promise<T[]> {
  return (await numberedDown<T>(models, kind, robotId, from, to)).map(([, item]) => item);
}

async function page<T>(
  models: Models,
  kind: BlockKind,
  robotId: string,
  limit: number,
  cursor: string | undefined,
): Promise<Page<T>> {
  const { state } = await readTally(models, robotId);
  const [first, end] = kind === 'runs' ? [state.firstRun, state.placedThrough] : [state.firstEntry, state.entries];
  const to = cursor === undefined ? end : Math.min(decodeCursor(cursor), end);
  const from = Math.max(first, to - limit);
  return {
    items: await itemsDown<T>(models, kind, robotId, from, to),
    nextCursor: from > first ? encodeCursor(from) : null,
  };
}

export const runsPage = (models: Models, robotId: string, limit: number, cursor?: string) =>
  page<RunSummary>(models, 'runs', robotId, limit, cursor);

export const deliveriesPage = (models: Models, robotId: string, limit: number, cursor?: string) =>
  page<DeliveryEntry>(models, 'deliveries', robotId, limit, cursor);

/** Which deliveries a filtered page of the log lists (every one given must hold). */
export interface DeliveryFilter {
  outcome?: DeliveryOutcome;
  since?: Date;
  until?: Date;
  /** Part of the sender's event name, any case. */
  event?: string;
}

function matcher(filter: DeliveryFilter): (d: DeliveryEntry) => boolean {
  const since = filter.since?.getTime() ?? -Infinity;
  const until = filter.until?.getTime() ?? Infinity;
  const event = filter.event?.toLowerCase();
  return (d) => {
    const at = new Date(d.receivedAt).getTime();
    return (
      (filter.outcome === undefined || d.outcome === filter.outcome) &&
      at >= since &&
      at <= until &&
      (event === undefined || (d.event ?? '').toLowerCase().includes(event))
    );
  };
}

/**
 * A page of the deliveries that match, newest first. The store has no index a filter can use
 * (FerretDB), so it walks the log's blocks by `_id`, a few at a time, and stops once it has `limit`
 * or has looked at DELIVERY_FILTER_SCAN deliveries: a page may be short with a cursor to go on
 * (the entries are in the order they were recorded, which a held delivery's time does not follow,
 * so a time filter cannot stop early).
 */
export async function filteredDeliveriesPage(
  models: Models,
  robotId: string,
  limit: number,
  cursor: string | undefined,
  filter: DeliveryFilter,
): Promise<Page<DeliveryEntry>> {
  if (Object.values(filter).every((v) => v === undefined)) return deliveriesPage(models, robotId, limit, cursor);
  const { state } = await readTally(models, robotId);
  const matches = matcher(filter);
  const floor = Math.max(
    state.firstEntry,
    (cursor === undefined ? state.entries : decodeCursor(cursor)) - DELIVERY_FILTER_SCAN,
  );
  let to = cursor === undefined ? state.entries : Math.min(decodeCursor(cursor), state.entries);
  const items: DeliveryEntry[] = [];
  while (to > floor) {
    const from = Math.max(floor, to - FILTER_READ_BLOCKS * BLOCK_SIZE);
    for (const [n, entry] of await numberedDown<DeliveryEntry>(models, 'deliveries', robotId, from, to)) {
      if (!matches(entry)) continue;
      items.push(entry);
      if (items.length === limit) return { items, nextCursor: n > state.firstEntry ? encodeCursor(n) : null };
    }
    to = from;
  }
  return { items, nextCursor: to > state.firstEntry ? encodeCursor(to) : null };
}

/** Blocks a filtered page reads at once. */
const FILTER_READ_BLOCKS = 4;
