/**
 * A robot's run history and deliveries log, on its page (./robot.tsx): a page at a time, newest
 * first, the first page following new runs and deliveries every FOLLOW_MS.
 */
import { useEffect, useState } from 'preact/hooks';
import { call, type Delivery, type Outcome, type RunSummary } from '../api';
import { link } from '../nav';
import { FieldError, FOLLOW_MS, formatTime, useRefusal } from './components';
import { canWrite } from '../rights';

/** A page of a history list, following its first page while it is shown. */
function usePage<T>(robotId: string, list: 'listRuns' | 'listDeliveries') {
  const [cursors, setCursors] = useState<string[]>([]); // the cursors of the pages before this one
  const [page, setPage] = useState<{ items: T[]; nextCursor: string | null } | null>(null);
  const cursor = cursors.at(-1);
  useEffect(() => {
    const load = async () => {
      const answer = await call(list, { params: { id: robotId }, query: { limit: 20, cursor } });
      const items = 'runs' in answer ? answer.runs : answer.deliveries;
      setPage({ items: items as T[], nextCursor: answer.nextCursor });
    };
    void load();
    if (cursor) return undefined;
    const timer = setInterval(() => void load(), FOLLOW_MS);
    return () => clearInterval(timer);
  }, [robotId, list, cursor]);
  const older = page?.nextCursor ? () => setCursors([...cursors, page.nextCursor!]) : null;
  const newer = cursors.length > 0 ? () => setCursors(cursors.slice(0, -1)) : null;
  return { page, older, newer };
}

function Pager(props: { of: string; older: (() => void) | null; newer: (() => void) | null }) {
  const { older, newer } = props;
  return (
    <div class="actions">
      <button type="button" aria-label={`Newer ${props.of}`} disabled={!newer} onClick={() => newer?.()}>
        Newer
      </button>
      <button type="button" aria-label={`Older ${props.of}`} disabled={!older} onClick={() => older?.()}>
        Older
      </button>
    </div>
  );
}

const preview = (r: RunSummary) => (r.triggerTruncated ? '(large: open the run)' : JSON.stringify(r.trigger));

export function Runs({ robotId }: { robotId: string }) {
  const { page, older, newer } = usePage<RunSummary>(robotId, 'listRuns');
  return (
    <section>
      <h2>Run history</h2>
      <table aria-label="Run history">
        <thead>
          <tr>
            <th>Status</th>
            <th>Started</th>
            <th>Trigger data</th>
          </tr>
        </thead>
        <tbody>
          {page?.items.map((r) => (
            <tr key={r.id}>
              <td>
                <a
                  href={`/runs/${r.id}`}
                  onClick={link(`/runs/${r.id}`)}
                  aria-label={`${r.status}: run of ${formatTime(r.createdAt)}`}
                >
                  {r.status}
                </a>
              </td>
              <td>
                {formatTime(r.createdAt)}
                {r.test && <span class="tag"> test</span>}
              </td>
              <td>
                <code>{preview(r)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {page && page.items.length === 0 && <p>No runs yet.</p>}
      <Pager of="runs" older={older} newer={newer} />
    </section>
  );
}

const OUTCOMES: Outcome[] = ['processed', 'filtered', 'duplicate', 'dropped', 'rejected', 'failed', 'handshake'];

export function Deliveries({ robotId }: { robotId: string }) {
  const { page, older, newer } = usePage<Delivery>(robotId, 'listDeliveries');
  const [outcome, setOutcome] = useState<Outcome | ''>('');
  const [replayed, setReplayed] = useState<string | null>(null);
  const { refusal, attempt } = useRefusal();
  // The API lists deliveries by time only: the filter narrows the page shown.
  const shown = page?.items.filter((d) => !outcome || d.outcome === outcome) ?? [];
  const replay = (d: Delivery) =>
    void attempt(async () => {
      setReplayed((await call('replayDelivery', { params: { id: d.id } })).deliveryId);
    });
  return (
    <section>
      <h2>Deliveries</h2>
      <label>
        Outcome (on this page){' '}
        <select value={outcome} onChange={(e) => setOutcome(e.currentTarget.value as Outcome | '')}>
          <option value="">All</option>
          {OUTCOMES.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </label>
      {replayed && <p role="status">Replayed as delivery {replayed}.</p>}
      <FieldError refusal={refusal} />
      <table aria-label="Deliveries">
        <thead>
          <tr>
            <th>Outcome</th>
            <th>Received</th>
            <th>Size</th>
            <th>Content type</th>
            <th>Details</th>
            {canWrite() && <th aria-label="Replay" />}
          </tr>
        </thead>
        <tbody>
          {shown.map((d) => (
            <tr key={d.id}>
              <td>{d.outcome}</td>
              <td>{formatTime(d.receivedAt)}</td>
              <td>{d.size} bytes</td>
              <td>{d.contentType ?? ''}</td>
              <td>
                {d.outcome === 'processed' && `${d.runCount ?? 0} run(s)`}
                {d.filteredRows !== undefined && d.outcome === 'processed' && `, ${d.filteredRows} row(s) filtered`}
                {d.reason && <span>{d.reason}</span>}
                {d.error && <span class="error">{d.error}</span>}
                {d.replayOf && <span> (replay)</span>}
                {d.test && <span class="tag"> (test delivery)</span>}
              </td>
              {canWrite() && (
                <td>
                  {d.replayable && (
                    <button type="button" aria-label={`Replay delivery ${d.id}`} onClick={() => replay(d)}>
                      Replay
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {page && shown.length === 0 && <p>No deliveries{outcome ? ` ${outcome}` : ''} on this page.</p>}
      <Pager of="deliveries" older={older} newer={newer} />
    </section>
  );
}
