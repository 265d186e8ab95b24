/**
 * The delivery inspector (`/deliveries/:id`): what a sender sent and what it was answered, for every
 * delivery whatever became of it: when it came, its method and path (the URL's token masked), every
 * header (a credential's value never kept: shown masked), its body pretty and raw (./body-view.tsx),
 * the answer and its reason, its runs, the delivery a duplicate repeats, and Replay for editors.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, call, type Delivery } from '../api';
import { link } from '../nav';
import { canWrite } from '../rights';
import { Badge, FieldError, formatTime, plural, useRefusal, useTitle, BackToRobot } from './components';
import { BodyView, firstPart } from './body-view';

/** What the sender was answered, in words: its status where the receiver answered it itself. */
function answerOf(d: Delivery): string {
  const status = d.answered ?? (d.outcome === 'rejected' ? '4xx' : '2xx');
  switch (d.outcome) {
    case 'rejected':
      return `Refused (${status}): ${d.reason ?? ''}`;
    case 'handshake':
      return `Answered the sender's check of the URL (${status}), no run`;
    case 'duplicate':
      return `Accepted (${status}) as a repeat: no run`;
    case 'processed':
      return `Accepted (${status}): ${plural(d.runCount ?? 0, 'run')}`;
    case 'filtered':
      return `Accepted (${status}), no run: ${d.reason ?? ''}`;
    case 'dropped':
      return `Accepted (${status}), dropped: ${d.reason ?? ''}`;
    case 'failed':
      return `Accepted (${status}), then failed: ${d.error ?? ''}`;
  }
}

const toDelivery = (id: string) => ({ href: `/deliveries/${id}`, onClick: link(`/deliveries/${id}`) });

export function DeliveryPage({ id }: { id: string }) {
  const [delivery, setDelivery] = useState<Delivery | null>(null);
  const [missing, setMissing] = useState(false);
  const [replayed, setReplayed] = useState<string | null>(null);
  const { refusal, attempt } = useRefusal();
  const [first] = useState(() => firstPart(id));
  useTitle(delivery ? `Delivery ${delivery.event ?? delivery.outcome}` : 'Delivery');
  useEffect(() => {
    call('getDelivery', { params: { id } }).then(setDelivery, (err: unknown) => {
      if (err instanceof ApiError && err.status === 404) setMissing(true);
      else throw err;
    });
  }, [id]);
  if (missing) return <p>No such delivery.</p>;
  if (!delivery) return <p>Loading…</p>;
  const d = delivery;
  const replay = () =>
    void attempt(async () => setReplayed((await call('replayDelivery', { params: { id: d.id } })).deliveryId));
  return (
    <>
      <section>
        <h1>
          Delivery <Badge status={d.outcome} />
          {d.event && <code class="event"> {d.event}</code>}
        </h1>
        <BackToRobot robotId={d.robotId} workflowUrl={d.workflowUrl} />
        <dl class="facts" aria-label="Delivery">
          <dt>Received</dt>
          <dd>{formatTime(d.receivedAt)}</dd>
          <dt>Request</dt>
          <dd>
            <code>{d.request ? `${d.request.method} ${d.request.path}` : '(not kept: recorded before 0.12)'}</code>
          </dd>
          <dt>Answer</dt>
          <dd aria-label="Answer">{answerOf(d)}</dd>
          <dt>Body</dt>
          <dd>
            {plural(d.size, 'byte')}
            {d.contentType && `, ${d.contentType}`}
            {d.verified === true && ', signature verified'}
            {d.verified === false && ', signature not verified'}
          </dd>
          {d.duplicateOf && (
            <>
              <dt>Repeats</dt>
              <dd>
                <a {...toDelivery(d.duplicateOf)}>the delivery it repeats</a>
              </dd>
            </>
          )}
          {d.replayOf && (
            <>
              <dt>Replays</dt>
              <dd>
                <a {...toDelivery(d.replayOf)}>the delivery it replays</a>
              </dd>
            </>
          )}
          {d.test && (
            <>
              <dt>Test</dt>
              <dd>sent as a test delivery</dd>
            </>
          )}
        </dl>
        {canWrite() && d.replayable && (
          <div class="actions">
            <button type="button" onClick={replay}>
              Replay
            </button>
          </div>
        )}
        {replayed && (
          <p role="status">
            Replayed as <a {...toDelivery(replayed)}>a new delivery</a>.
          </p>
        )}
        <FieldError refusal={refusal} />
      </section>
      {d.runIds.length > 0 && (
        <section>
          <h2>Runs</h2>
          <ol aria-label="Runs">
            {d.runIds.map((runId, i) => (
              <li key={runId}>
                <a href={`/runs/${runId}`} onClick={link(`/runs/${runId}`)}>
                  Run {i + 1}
                </a>
              </li>
            ))}
          </ol>
          {(d.runCount ?? 0) > d.runIds.length && (
            <p>and {plural((d.runCount ?? 0) - d.runIds.length, 'more run')} in the run history.</p>
          )}
        </section>
      )}
      <section>
        <h2>Headers</h2>
        {d.request ? (
          <div class="table-scroll">
            <table aria-label="Headers">
              <tbody>
                {d.request.headers.map(([name, value], i) => (
                  <tr key={i}>
                    <th scope="row">{name}</th>
                    <td>
                      <code>{value}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p>Not kept for this delivery.</p>
        )}
        {d.request?.headersLeftOut && <p>and {plural(d.request.headersLeftOut, 'more header')}, not kept.</p>}
      </section>
      <section>
        <h2>Body</h2>
        <BodyView delivery={d} first={first} />
      </section>
    </>
  );
}
