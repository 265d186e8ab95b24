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
import { BLOCK_SIZE } from '../domain/limits';
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

/** Items `[from, to)` of the robot's blocks of this kind, newest first. */
export async function itemsDown<T>(
  models: Models,
  kind: BlockKind,
  robotId: string,
  from: number,
  to: number,
): Promise<T[]> {
  if (to <= from) return [];
  const ids: string[] = [];
  for (let b = blockOf(to - 1); b >= blockOf(from); b--) ids.push(blockId(kind, robotId, b));
  const blocks = await readBlocks<T>(models, ids);
  const items: T[] = [];
  for (let n = to - 1; n >= from; n--) {
    const item = blocks.get(blockId(kind, robotId, blockOf(n)))?.[n % BLOCK_SIZE];
    if (item) items.push(item);
  }
  return items;
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
