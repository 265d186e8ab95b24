/**
 * The workspace's open issues, counted for the header's "Issues (3)": the first page of
 * `GET /api/issues?status=open` (a page holds 50: more reads "50+"). It is read again at each move
 * between pages, every OPEN_ISSUES_MS, and at once when an issue is acknowledged or resolved here.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, call } from './api';

/**
 * How often an open page reads the count again: an issue opens within a second of its first failure,
 * and a header on every page of every tab asking each 2 s (FOLLOW_MS) would read the workspace's
 * issues for nothing most of the time; a person on the Issues page sees its table follow at once.
 */
const OPEN_ISSUES_MS = 10_000;

const CHANGED = 'issues-changed';

/** Says that an issue changed here (acknowledged, resolved): the header counts again. */
export const issuesChanged = () => dispatchEvent(new Event(CHANGED));

/** The open issues of the workspace shown ("3", "50+"); null until read. */
export function useOpenIssues(workspaceId: string): string | null {
  const [count, setCount] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    const read = async () => {
      try {
        const page = await call('listIssues', { query: { status: 'open' } });
        if (current) setCount(`${page.issues.length}${page.nextCursor ? '+' : ''}`);
      } catch (err) {
        // Signed out meanwhile (sign-in shows over the page): the count stays as it was.
        if (!(err instanceof ApiError)) throw err;
      }
    };
    const readNow = () => void read();
    readNow();
    const timer = setInterval(readNow, OPEN_ISSUES_MS);
    addEventListener('popstate', readNow);
    addEventListener(CHANGED, readNow);
    return () => {
      current = false;
      clearInterval(timer);
      removeEventListener('popstate', readNow);
      removeEventListener(CHANGED, readNow);
    };
  }, [workspaceId]);
  return count;
}
