/**
 * A run (`/runs/:id`): its trigger data, each step's output or error, its delivery and a link to
 * its workflow in the Temporal Web UI (the API gives it to the operator only), and a hint when
 * every placeholder came out empty.
 */
import { useEffect, useState } from 'preact/hooks';
import { call, ApiError, type Delivery, type Run } from '../api';
import { Badge, FOLLOW_MS, formatTime, json, plural, useTitle, BackToRobot } from './components';

export function RunPage({ id }: { id: string }) {
  const [run, setRun] = useState<Run | null>(null);
  const [delivery, setDelivery] = useState<Delivery | null>(null);
  const [missing, setMissing] = useState(false);
  const running = !missing && (!run || run.status === 'running');
  useEffect(() => {
    if (!running) return undefined;
    // A running run is read again every FOLLOW_MS until it has finished.
    const load = async () => {
      try {
        const r = await call('getRun', { params: { id } });
        setRun(r);
        setDelivery(await call('getDelivery', { params: { id: r.deliveryId } }));
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) setMissing(true);
        else throw err;
      }
    };
    void load();
    const timer = setInterval(() => void load(), FOLLOW_MS);
    return () => clearInterval(timer);
  }, [id, running]);
  useTitle(missing ? 'No such run' : run ? `Run ${run.status}` : null);
  if (missing) return <p>No such run.</p>;
  if (!run) return <p>Loading…</p>;
  return (
    <>
      <section>
        <h1>
          Run <Badge status={run.status} />
        </h1>
        <BackToRobot robotId={run.robotId} workflowUrl={run.workflowUrl} />
        <p>
          Started {formatTime(run.createdAt)}
          {run.finishedAt && `, finished ${formatTime(run.finishedAt)}`}
        </p>
        {run.hint && (
          <p role="note" aria-label="Hint">
            Hint: {run.hint}.
          </p>
        )}
        {delivery && (
          <p>
            Delivery: <Badge status={delivery.outcome} />, {plural(delivery.size, 'byte')} of {delivery.format},
            received {formatTime(delivery.receivedAt)}
          </p>
        )}
      </section>
      <section>
        <h2>Trigger data</h2>
        <pre aria-label="Trigger data">{json(run.trigger)}</pre>
      </section>
      {run.steps.map((s, i) => (
        <section key={i} aria-label={`Step ${s.name}`}>
          <h2>
            Step {i + 1}: {s.name} <Badge status={s.status} />
          </h2>
          {s.error ? <pre class="error">{s.error}</pre> : <pre>{json(s.output ?? null)}</pre>}
        </section>
      ))}
    </>
  );
}
