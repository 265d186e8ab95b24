/**
 * Robots (`/`): the workspace's robots, newest first, a page at a time and searched by name, with
 * their state, trigger, run counts and last delivery; "New robot" at the top opens the form that
 * creates one, above the list; below it, creating apps and payment connections. A viewer sees the
 * list only (./rights.ts).
 */
import { DedupFields, type Dedup } from './dedup';
import { NO_SENDER, SenderFields, verificationOf, type SenderChoice } from './senders';
import { useEffect, useRef, useState } from 'preact/hooks';
import { call, type App, type BodyFormat, type Connection, type Robot } from '../api';
import { link, navigate } from '../nav';
import { canWrite } from '../rights';
import { FieldError, formatTime, parseSteps, stateName, StepsEditor, TextField, useRefusal } from './components';

/** Robots a page shows. */
const PAGE = 20;

interface Triggers {
  apps: App[];
  connections: Connection[];
}

export function RobotsPage() {
  const [triggers, setTriggers] = useState<Triggers | null>(null);
  const [creating, setCreating] = useState(false);
  const loadTriggers = async () => {
    const [apps, connections] = await Promise.all([call('listApps'), call('listConnections')]);
    setTriggers({ apps: apps.apps, connections: connections.connections });
  };
  useEffect(() => void loadTriggers(), []);
  const writer = canWrite();
  return (
    <>
      <div class="title">
        <h1>Robots</h1>
        {writer && (
          <button type="button" aria-expanded={creating} onClick={() => setCreating(!creating)}>
            New robot
          </button>
        )}
      </div>
      {writer && creating && triggers && (
        <NewRobot apps={triggers.apps} connections={triggers.connections} onCancel={() => setCreating(false)} />
      )}
      <RobotList triggers={triggers} />
      {writer && (
        <div class="grid">
          <NewApp onCreated={() => void loadTriggers()} />
          <NewConnection onCreated={() => void loadTriggers()} />
        </div>
      )}
    </>
  );
}

/** A page of the robots whose name holds what is searched: "Next page" goes on with older ones. */
function RobotList({ triggers }: { triggers: Triggers | null }) {
  const [search, setSearch] = useState('');
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [page, setPage] = useState<{ robots: Robot[]; nextCursor: string | null } | null>(null);
  useEffect(() => {
    let current = true;
    const query = { limit: PAGE, cursor, search: search.trim() || undefined };
    void call('listRobots', { query }).then((p) => current && setPage(p));
    return () => void (current = false);
  }, [search, cursor]);
  const triggerOf = ({ trigger }: Robot) => {
    if (trigger.kind === 'stripe') {
      return `Payment provider: ${triggers?.connections.find((c) => c.id === trigger.connectionId)?.name ?? '?'}`;
    }
    const app = triggers?.apps.find((a) => a.id === trigger.appId);
    return app ? `${app.name} (${app.bodyFormat})` : '?';
  };
  const next = page?.nextCursor;
  return (
    <section>
      <form role="search" aria-label="Search robots" onSubmit={(e) => e.preventDefault()}>
        <label>
          Search by name
          <input
            type="search"
            value={search}
            onInput={(e) => {
              setSearch(e.currentTarget.value);
              setCursor(undefined);
            }}
          />
        </label>
      </form>
      {!page ? (
        <p>Loading…</p>
      ) : (
        <>
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
              {page.robots.map((r) => (
                <tr key={r.id}>
                  <td>
                    <a href={`/robots/${r.id}`} onClick={link(`/robots/${r.id}`)}>
                      {r.name}
                    </a>
                  </td>
                  <td>{stateName(r.state)}</td>
                  <td>{triggerOf(r)}</td>
                  <td>
                    {r.runCounts
                      ? `${r.runCounts.total} (${r.runCounts.succeeded} succeeded, ${r.runCounts.failed} failed)`
                      : ''}
                  </td>
                  <td>{r.lastDeliveryAt ? formatTime(r.lastDeliveryAt) : 'none yet'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {page.robots.length === 0 &&
            (search.trim() ? (
              <p>No robot's name holds “{search.trim()}”.</p>
            ) : cursor ? (
              <p>No more robots.</p>
            ) : (
              <p>No robot yet{canWrite() ? ': create an app (below), then a robot on it.' : '.'}</p>
            ))}
        </>
      )}
      <div class="actions">
        <button type="button" disabled={!cursor} onClick={() => setCursor(undefined)}>
          First page
        </button>
        <button type="button" disabled={!next} onClick={() => next && setCursor(next)}>
          Next page
        </button>
      </div>
    </section>
  );
}

function NewApp({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState('');
  const [bodyFormat, setFormat] = useState<BodyFormat>('json');
  const [dedup, setDedup] = useState<Dedup>({ key: 'auto' });
  const [sender, setSender] = useState<SenderChoice>(NO_SENDER);
  const { refusal, attempt } = useRefusal();
  const submit = (e: Event) => {
    e.preventDefault();
    void attempt(async () => {
      const verification = verificationOf(sender);
      await call('createApp', { body: { name, supportsInboundTrigger: true, bodyFormat, verification, dedup } });
      setName('');
      setSender(NO_SENDER);
      onCreated();
    });
  };
  return (
    <section>
      <h2>New app</h2>
      <form onSubmit={submit} aria-label="New app">
        <TextField label="App name" value={name} onInput={setName} refusal={refusal} field="name" />
        <SenderFields value={sender} onChange={setSender} onFormat={setFormat} refusal={refusal} />
        <label>
          Body format
          <select value={bodyFormat} onChange={(e) => setFormat(e.currentTarget.value as BodyFormat)}>
            <option value="json">JSON</option>
            <option value="xml">XML</option>
            <option value="csv">CSV (one run per row)</option>
            <option value="text">Plain text</option>
            <option value="form">Form fields (application/x-www-form-urlencoded)</option>
          </select>
        </label>
        <FieldError refusal={refusal} field="bodyFormat" />
        <DedupFields value={dedup} onChange={setDedup} />
        <FieldError refusal={refusal} field="dedup" />
        <button type="submit">Create app</button>
        <FieldError refusal={refusal} />
      </form>
    </section>
  );
}

function NewConnection({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState('');
  const [secret, setSecret] = useState('');
  const { refusal, attempt } = useRefusal();
  const submit = (e: Event) => {
    e.preventDefault();
    void attempt(async () => {
      await call('createConnection', {
        body: { provider: 'stripe', name, ...(secret ? { signingSecret: secret } : {}) },
      });
      setName('');
      setSecret('');
      onCreated();
    });
  };
  return (
    <section>
      <h2>New payment connection</h2>
      <form onSubmit={submit} aria-label="New payment connection">
        <TextField label="Connection name" value={name} onInput={setName} refusal={refusal} field="name" />
        <TextField
          label="Signing secret (optional, write-only)"
          type="password"
          value={secret}
          onInput={setSecret}
          refusal={refusal}
          field="signingSecret"
        />
        <button type="submit">Create connection</button>
        <FieldError refusal={refusal} />
      </form>
    </section>
  );
}

const EXAMPLE_STEPS = JSON.stringify(
  [{ name: 'compose', type: 'compose', template: { hello: '{{trigger.name}}' } }],
  null,
  2,
);

function NewRobot(props: { apps: App[]; connections: Connection[]; onCancel: () => void }) {
  const { apps, connections } = props;
  const [name, setName] = useState('');
  const [trigger, setTrigger] = useState('');
  const [steps, setSteps] = useState(EXAMPLE_STEPS);
  const [stepsError, setStepsError] = useState<string | null>(null);
  const { refusal, attempt } = useRefusal();
  const form = useRef<HTMLFormElement>(null);
  // Opened by "New robot": the person types its name next.
  useEffect(() => form.current?.querySelector('input')?.focus(), []);
  const submit = (e: Event) => {
    e.preventDefault();
    const parsed = parseSteps(steps);
    setStepsError('notJson' in parsed ? parsed.notJson : null);
    if ('notJson' in parsed) return;
    const [kind, id] = trigger.split(':');
    void attempt(async () => {
      const robot = await call('createRobot', {
        body: { name, trigger: kind === 'connection' ? { connectionId: id } : { appId: id }, steps: parsed.steps },
      });
      navigate(`/robots/${robot.id}`);
    });
  };
  return (
    <section>
      <h2>New robot</h2>
      <form onSubmit={submit} aria-label="New robot" ref={form}>
        <TextField label="Robot name" value={name} onInput={setName} refusal={refusal} field="name" />
        <label>
          Trigger
          <select value={trigger} onChange={(e) => setTrigger(e.currentTarget.value)}>
            <option value="">Choose an app or connection</option>
            {apps.map((a) => (
              <option key={a.id} value={`app:${a.id}`}>
                {a.name} ({a.bodyFormat})
              </option>
            ))}
            {connections.map((c) => (
              <option key={c.id} value={`connection:${c.id}`}>
                Payment provider: {c.name}
              </option>
            ))}
          </select>
        </label>
        <FieldError refusal={refusal} field="trigger" />
        {apps.length + connections.length === 0 && <p class="muted">Create an app (below) to trigger it first.</p>}
        <StepsEditor value={steps} onInput={setSteps} notJson={stepsError} refusal={refusal} />
        <FieldError refusal={refusal} />
        <div class="actions">
          <button type="submit">Create robot</button>
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
