/**
 * A robot's run history and deliveries log, on its page (./robot.tsx): a page at a time, newest
 * first, the first page following new runs and deliveries every FOLLOW_MS.
 */
import { useState } from 'preact/hooks';
import { call, type Delivery, type Outcome, type RunSummary } from '../api';
import { link } from '../nav';
import { Badge, FieldError, formatTime, plural, useRefusal } from './components';
import { usePage } from './paged';
import { canWrite } from '../rights';

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

/** Runs or deliveries a page shows. */
const PAGE = 20;

const preview = (r: RunSummary) => (r.triggerTruncated ? '(large: open the run)' : JSON.stringify(r.trigger));

export function Runs({ robotId }: { robotId: string }) {
  const { page, older, newer } = usePage(
    'listRuns',
    { params: { id: robotId }, query: { limit: PAGE } },
    { follow: true },
  );
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
                  <Badge status={r.status} />
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

/** A time typed in a `datetime-local` input, as the API takes it (ISO 8601, UTC); undefined when empty. */
const isoOf = (local: string) => (local ? new Date(local).toISOString() : undefined);

/** The outcome the address asks for (`?outcome=rejected`: an issue's link to what it counted), or all. */
const outcomeAsked = (): Outcome | '' => {
  const asked = new URLSearchParams(location.search).get('outcome');
  return OUTCOMES.find((o) => o === asked) ?? '';
};

export function Deliveries({ robotId }: { robotId: string }) {
  const [outcome, setOutcome] = useState<Outcome | ''>(outcomeAsked);
  const [event, setEvent] = useState('');
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const filters = {
    ...(outcome ? { outcome } : {}),
    ...(event.trim() ? { event: event.trim() } : {}),
    ...(since ? { since: isoOf(since) } : {}),
    ...(until ? { until: isoOf(until) } : {}),
  };
  const query = { limit: PAGE, ...filters };
  const { page, older, newer } = usePage('listDeliveries', { params: { id: robotId }, query }, { follow: true });
  const [replayed, setReplayed] = useState<string | null>(null);
  const { refusal, attempt } = useRefusal();
  const filtered = Object.keys(filters).length > 0;
  const shown = page?.items ?? [];
  const replay = (d: Delivery) =>
    void attempt(async () => {
      setReplayed((await call('replayDelivery', { params: { id: d.id } })).deliveryId);
    });
  return (
    <section>
      <h2>Deliveries</h2>
      <div class="filters" role="search" aria-label="Filter deliveries">
        <label>
          Outcome{' '}
          <select value={outcome} onChange={(e) => setOutcome(e.currentTarget.value as Outcome | '')}>
            <option value="">All</option>
            {OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </label>
        <label>
          Event name <input type="search" value={event} onInput={(e) => setEvent(e.currentTarget.value)} />
        </label>
        <label>
          From <input type="datetime-local" value={since} onInput={(e) => setSince(e.currentTarget.value)} />
        </label>
        <label>
          To <input type="datetime-local" value={until} onInput={(e) => setUntil(e.currentTarget.value)} />
        </label>
      </div>
      {replayed && (
        <p role="status">
          Replayed as{' '}
          <a href={`/deliveries/${replayed}`} onClick={link(`/deliveries/${replayed}`)}>
            a new delivery
          </a>
          .
        </p>
      )}
      <FieldError refusal={refusal} />
      <div class="table-scroll">
        <table aria-label="Deliveries">
          <thead>
            <tr>
              <th>Outcome</th>
              <th>Event</th>
              <th>Received</th>
              <th>Size</th>
              <th>Details</th>
              {canWrite() && <th aria-label="Replay" />}
            </tr>
          </thead>
          <tbody>
            {shown.map((d) => (
              <tr key={d.id}>
                <td>
                  <a
                    href={`/deliveries/${d.id}`}
                    onClick={link(`/deliveries/${d.id}`)}
                    aria-label={`Inspect the ${d.outcome} delivery of ${formatTime(d.receivedAt)}`}
                  >
                    <Badge status={d.outcome} />
                  </a>
                </td>
                <td>{d.event && <code>{d.event}</code>}</td>
                <td>{formatTime(d.receivedAt)}</td>
                <td>{plural(d.size, 'byte')}</td>
                <td>
                  {d.outcome === 'processed' && plural(d.runCount ?? 0, 'run')}
                  {d.filteredRows !== undefined &&
                    d.outcome === 'processed' &&
                    `, ${plural(d.filteredRows, 'row')} filtered`}
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
      </div>
      {page && shown.length === 0 && (
        <p>
          {filtered
            ? page.answer.nextCursor
              ? 'None matched among the latest looked at: Older looks further.'
              : 'No delivery matches.'
            : 'No deliveries yet.'}
        </p>
      )}
      <Pager of="deliveries" older={older} newer={newer} />
    </section>
  );
}
