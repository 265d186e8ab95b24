/**
 * The dashboard's one pager: a page of a paged operation's list (one that declares its `items` in
 * src/contract/management.ts: robots, runs, deliveries, the audit log), newest first, with Older and
 * Newer over the cursors of the pages read before. The robots list keeps its cursors in the address
 * instead (./robot-list.tsx): it hands its cursor in `args` and takes the answer's.
 */
import { useEffect, useState } from 'preact/hooks';
import { call } from '../api';
import {
  pageItems,
  type AnswerOf,
  type ArgsOf,
  type ItemOf,
  type PagedOperation,
} from '../../../src/client/operations';
import { FOLLOW_MS } from './components';

/** A page as read: its items (the operation's declared list) and the whole answer (cursors, counts). */
export interface Page<K extends PagedOperation> {
  items: ItemOf<K>[];
  answer: AnswerOf<K>;
}

/** The arguments a paged operation's call may carry: its query at least. */
type Args = { query?: Record<string, unknown> } | undefined;

/**
 * Page after page of operation `name` called with `args` (its filters; kept as JSON, so a new but
 * equal object reads nothing again). New `args` start again at their first page. With `follow`,
 * the first page is read again every FOLLOW_MS while it is shown. An answer to arguments or a cursor
 * no longer shown is dropped. `page` is the last one shown until the next arrives (null: none yet).
 */
export function usePage<K extends PagedOperation>(
  name: K,
  args: ArgsOf<K>[0],
  { follow = false }: { follow?: boolean } = {},
): { page: Page<K> | null; older: (() => void) | null; newer: (() => void) | null } {
  const key = JSON.stringify(args ?? {});
  // The cursors of the pages before this one, for the arguments they were read with.
  const [read, setRead] = useState<{ key: string; cursors: string[] }>({ key, cursors: [] });
  const cursors = read.key === key ? read.cursors : [];
  const cursor = cursors.at(-1);
  useEffect(() => setRead((r) => (r.key === key ? r : { key, cursors: [] })), [key]);
  const [page, setPage] = useState<Page<K> | null>(null);
  useEffect(() => {
    let current = true;
    const given = JSON.parse(key) as NonNullable<Args>;
    const withCursor = { ...given, query: { ...given.query, ...(cursor ? { cursor } : {}) } };
    const load = async () => {
      const answer = await call(name, ...([withCursor] as unknown as ArgsOf<K>));
      if (current) setPage({ items: pageItems(name, answer), answer });
    };
    void load();
    const timer = follow && !cursor ? setInterval(() => void load(), FOLLOW_MS) : undefined;
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [name, key, cursor, follow]);
  const next = (page?.answer as { nextCursor?: string | null } | undefined)?.nextCursor;
  const older = next ? () => setRead({ key, cursors: [...cursors, next] }) : null;
  const newer = cursors.length > 0 ? () => setRead({ key, cursors: cursors.slice(0, -1) }) : null;
  return { page, older, newer };
}
