/**
 * The robots list (`/`): a page of the workspace's robots, newest first, with how many match; a
 * search by name, a filter by state, and Previous and Next. What is shown is in the address
 * (`?search=…&state=paused&after=<cursor>` or `before=<cursor>`), so Back and a reload return to
 * the same page; the API answers the count and both cursors from the workspace's directory
 * (src/workspaces/robot-directory.ts), so a page costs the same at 10,000 robots.
 */
import { useEffect, useState } from 'preact/hooks';
import type { App, Connection, Robot } from '../api';
import { link } from '../nav';
import { canWrite } from '../rights';
import { ROBOT_STATES } from '../../../src/domain/types';
import { formatTime, plural, stateName, StateBadge } from './components';
import { usePage } from './paged';

/** Robots a page shows. */
const PAGE = 20;

type State = Robot['state'];

/** What the list shows, as the address says it. */
interface ListView {
  search: string;
  state: State | '';
  after?: string;
  before?: string;
}

function viewOf(search: string): ListView {
  const q = new URLSearchParams(search);
  const state = q.get('state') ?? '';
  return {
    search: q.get('search') ?? '',
    state: (ROBOT_STATES as readonly string[]).includes(state) ? (state as State) : '',
    after: q.get('after') ?? undefined,
    before: q.get('before') ?? undefined,
  };
}

function addressOf(view: ListView): string {
  const q = new URLSearchParams();
  if (view.search) q.set('search', view.search);
  if (view.state) q.set('state', view.state);
  if (view.after) q.set('after', view.after);
  else if (view.before) q.set('before', view.before);
  const text = q.toString();
  return text ? `/?${text}` : '/';
}

/** The list's view, kept in the address: a new search or filter is a new history entry, typing replaces it. */
function useListView(): [ListView, (view: ListView, replace?: boolean) => void] {
  const [view, setView] = useState(() => viewOf(location.search));
  useEffect(() => {
    const moved = () => setView(viewOf(location.search));
    addEventListener('popstate', moved);
    return () => removeEventListener('popstate', moved);
  }, []);
  const go = (next: ListView, replace = false) => {
    if (replace) history.replaceState(null, '', addressOf(next));
    else history.pushState(null, '', addressOf(next));
    setView(next);
  };
  return [view, go];
}

export interface Triggers {
  apps: App[];
  connections: Connection[];
}

export function RobotList({ triggers }: { triggers: Triggers | null }) {
  const [view, go] = useListView();
  const query = {
    limit: PAGE,
    search: view.search.trim() || undefined,
    state: view.state || undefined,
    cursor: view.after,
    before: view.after ? undefined : view.before,
  };
  // Its cursors are the address's (Previous and Next below), not the pager's Older and Newer.
  const read = usePage('listRobots', { query }).page;
  const page = read?.answer;
  const robots = read?.items ?? [];
  const triggerOf = ({ trigger }: Robot) => {
    if (trigger.kind === 'stripe') {
      return `Payment provider: ${triggers?.connections.find((c) => c.id === trigger.connectionId)?.name ?? '?'}`;
    }
    const app = triggers?.apps.find((a) => a.id === trigger.appId);
    return app ? `${app.name} (${app.bodyFormat})` : '?';
  };
  const searched = view.search.trim();
  /** A search being typed is one entry of the history: its first letter pushes one, the next ones replace it. */
  const typing = view.search !== '' && !view.after && !view.before;
  const what = view.state ? `${stateName(view.state).toLowerCase()} robot` : 'robot';
  return (
    <section>
      <form role="search" aria-label="Search robots" onSubmit={(e) => e.preventDefault()} class="filters">
        <label>
          Search by name
          <input
            type="search"
            value={view.search}
            onInput={(e) => go({ search: e.currentTarget.value, state: view.state }, typing)}
          />
        </label>
        <label>
          State
          <select
            value={view.state}
            onChange={(e) => go({ search: view.search, state: e.currentTarget.value as State | '' })}
          >
            <option value="">Any state</option>
            {ROBOT_STATES.map((s) => (
              <option key={s} value={s}>
                {stateName(s)}
              </option>
            ))}
          </select>
        </label>
      </form>
      {!page ? (
        <p>Loading…</p>
      ) : (
        <>
          <p role="status" aria-label="Robots shown">
            {robots.length === 0
              ? `${plural(page.total, what)}${searched ? ` named “${searched}”` : ''}`
              : `${page.offset + 1}–${page.offset + robots.length} of ${plural(page.total, what)}` +
                (searched ? ` named “${searched}”` : '')}
          </p>
          <div class="table-scroll">
            <table aria-label="Robots">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>State</th>
                  <th>Trigger</th>
                  <th>Runs</th>
                  <th>Last delivery</th>
                </tr>
              </thead>
              <tbody>
                {robots.map((r) => (
                  <tr key={r.id}>
                    <td>
                      <a href={`/robots/${r.id}`} onClick={link(`/robots/${r.id}`)}>
                        {r.name}
                      </a>
                    </td>
                    <td>
                      <StateBadge state={r.state} />
                    </td>
                    <td>{triggerOf(r)}</td>
                    <td>
                      {r.runCounts
                        ? `${plural(r.runCounts.total, 'run')} (${r.runCounts.succeeded} succeeded, ` +
                          `${r.runCounts.failed} failed)`
                        : ''}
                    </td>
                    <td>{r.lastDeliveryAt ? formatTime(r.lastDeliveryAt) : 'none yet'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {robots.length === 0 &&
            (searched ? (
              <p>
                No {what}'s name holds “{searched}”.
              </p>
            ) : view.state ? (
              <p>No {what}.</p>
            ) : view.after || view.before ? (
              <p>No more robots.</p>
            ) : (
              <p>No robot yet{canWrite() ? ': create an app (below), then a robot on it.' : '.'}</p>
            ))}
        </>
      )}
      <div class="actions">
        <button
          type="button"
          disabled={!page?.prevCursor}
          onClick={() => page?.prevCursor && go({ search: view.search, state: view.state, before: page.prevCursor })}
        >
          Previous
        </button>
        <button
          type="button"
          disabled={!page?.nextCursor}
          onClick={() => page?.nextCursor && go({ search: view.search, state: view.state, after: page.nextCursor })}
        >
          Next
        </button>
      </div>
    </section>
  );
}
