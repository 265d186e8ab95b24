/**
 * Newest-first pages over (time, _id), with an opaque cursor naming the last item of a page.
 */
import type { FilterQuery } from 'mongoose';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.getTime(), id])).toString('base64url');
}

export class BadCursor extends Error {
  readonly status = 400;
  readonly field = 'cursor';
  constructor() {
    super('cursor: not a cursor returned by this API');
  }
}

/** The filter for items after the cursor, in descending (timeField, _id) order. */
export function afterCursor<T>(timeField: string, cursor: string | undefined): FilterQuery<T> {
  if (!cursor) return {};
  let at: number, id: string;
  try {
    [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [number, string];
  } catch {
    throw new BadCursor();
  }
  if (typeof at !== 'number' || typeof id !== 'string') throw new BadCursor();
  const time = new Date(at);
  return { $or: [{ [timeField]: { $lt: time } }, { [timeField]: time, _id: { $lt: id } }] } as FilterQuery<T>;
}

export function pageOf<T extends { _id: string }>(docs: T[], limit: number, timeOf: (d: T) => Date): Page<T> {
  const items = docs.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: docs.length > limit && last ? encodeCursor(timeOf(last), last._id) : null };
}
