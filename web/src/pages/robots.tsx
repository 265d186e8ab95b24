/**
 * Robots (`/`): every robot with its state, trigger, run counts and last delivery; creating apps,
 * payment connections and robots.
 */
import { DedupFields, type Dedup } from './dedup';
import { NO_SENDER, SenderFields, verificationOf, type SenderChoice } from './senders';
import { useEffect, useState } from 'preact/hooks';
import { call, type App, type BodyFormat, type Connection, type Robot } from '../api';
import { link, navigate } from '../nav';
import { FieldError, formatTime, parseSteps, stateName, StepsEditor, TextField, useRefusal } from './components';

interface Lists {
  robots: Robot[];
  apps: App[];
  connections: Connection[];
}

export function RobotsPage() {
  const [lists, setLists] = useState<Lists | null>(null);
  const load = async () => {
    const [robots, apps, connections] = await Promise.all([
      call('listRobots'),
      call('listApps'),
      call('listConnections'),
    ]);
    setLists({ robots: robots.robots, apps: apps.apps, connections: connections.connections });
  };
  useEffect(() => void load(), []);
  if (!lists) return <p>Loading…</p>;
  const triggerOf = ({ trigger }: Robot) => {
    if (trigger.kind === 'stripe') {
      return `Payment provider: ${lists.connections.find((c) => c.id === trigger.connectionId)?.name ?? '?'}`;
    }
    const app = lists.apps.find((a) => a.id === trigger.appId);
    return app ? `${app.name} (${app.bodyFormat})` : '?';
  };
  return (
    <>
      <section>
        <h1>Robots</h1>
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
            {lists.robots.map((r) => (
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
        {lists.robots.length === 0 && <p>No robot yet: create an app, then a robot on it.</p>}
      </section>
      <div class="grid">
        <NewApp onCreated={() => void load()} />
        <NewConnection onCreated={() => void load()} />
        <NewRobot apps={lists.apps} connections={lists.connections} />
      </div>
    </>
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

function NewRobot({ apps, connections }: { apps: App[]; connections: Connection[] }) {
  const [name, setName] = useState('');
  const [trigger, setTrigger] = useState('');
  const [steps, setSteps] = useState(EXAMPLE_STEPS);
  const [stepsError, setStepsError] = useState<string | null>(null);
  const { refusal, attempt } = useRefusal();
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
      <form onSubmit={submit} aria-label="New robot">
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
        <StepsEditor value={steps} onInput={setSteps} notJson={stepsError} refusal={refusal} />
        <button type="submit">Create robot</button>
        <FieldError refusal={refusal} />
      </form>
    </section>
  );
}
