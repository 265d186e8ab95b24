/**
 * Robots (`/`): the workspace's robots, newest first, a page at a time, searched by name and
 * filtered by state (./robot-list.tsx), with their state, trigger, run counts and last delivery;
 * "New robot" at the top opens the form that creates one, above the list; below it, creating apps
 * and payment connections. A viewer sees the list only (./rights.ts).
 */
import { NAME_RULE, NewApp } from './app-form';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, call, type App, type Connection } from '../api';
import { link, navigate } from '../nav';
import { RobotList, type Triggers } from './robot-list';
import { canWrite } from '../rights';
import { parseSteps, StepsEditor, useTitle } from './components';
import {
  checkAll,
  Problem,
  problemsOfRefusal,
  stepInWords,
  ProblemsSummary,
  required,
  Rule,
  useDraft,
  useLeavePrompt,
} from '../forms';
import type { Problems } from '../forms';

export function RobotsPage() {
  useTitle('Robots');
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
          <p>
            Apps and payment connections are listed, edited and their refused deliveries replayed on the{' '}
            <a href="/apps" onClick={link('/apps')}>
              Apps page
            </a>
            .
          </p>
        </div>
      )}
    </>
  );
}

const EXAMPLE_STEPS = JSON.stringify(
  [{ name: 'compose', type: 'compose', template: { hello: '{{trigger.name}}' } }],
  null,
  2,
);

interface RobotDraft {
  name: string;
  trigger: string;
  steps: string;
}
const NEW_ROBOT: RobotDraft = { name: '', trigger: '', steps: EXAMPLE_STEPS };
const STEPS_RULE = 'a JSON list of steps, each { "name", "type": "compose", "template" }; at most 50';
const ROBOT_RULES = [required('name', NAME_RULE), required('trigger', 'required: an app or a payment connection')];

/** The robot's form: its rules shown first, every problem at once in words, its draft kept (../forms.tsx). */
function NewRobot(props: { apps: App[]; connections: Connection[]; onCancel: () => void }) {
  const { apps, connections } = props;
  const draft = useDraft<RobotDraft>('new-robot', NEW_ROBOT);
  const { name, trigger, steps } = draft.value;
  const set = (change: Partial<RobotDraft>) => draft.set((before) => ({ ...before, ...change }));
  const leaving = useLeavePrompt(JSON.stringify(draft.value) !== JSON.stringify(NEW_ROBOT));
  const [problems, setProblems] = useState<Problems>({});
  const form = useRef<HTMLFormElement>(null);
  // Opened by "New robot": the person types its name next.
  useEffect(() => form.current?.querySelector('input')?.focus(), []);
  const submit = async (e: Event) => {
    e.preventDefault();
    const parsed = parseSteps(steps);
    const found = checkAll(ROBOT_RULES, { name, trigger });
    if ('notJson' in parsed) found.steps = parsed.notJson;
    setProblems(found);
    if ('notJson' in parsed || Object.keys(found).length > 0) return;
    const [kind, id] = trigger.split(':');
    const events = connections.find((c) => c.id === id)?.events ?? [];
    const on = kind === 'connection' ? { connectionId: id, ...(events.length ? { events } : {}) } : { appId: id };
    try {
      const robot = await call('createRobot', { body: { name, trigger: on, steps: parsed.steps } });
      draft.clear();
      leaving.saved();
      navigate(`/robots/${robot.id}`);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status === 401) throw err;
      setProblems(problemsOfRefusal(err, ['name', 'trigger', 'steps'], stepInWords));
    }
  };
  return (
    <section>
      <h2>New robot</h2>
      <form onSubmit={(e) => void submit(e)} aria-label="New robot" ref={form} noValidate>
        <label>
          Robot name
          <input value={name} onInput={(e) => set({ name: e.currentTarget.value })} />
        </label>
        <Problem problems={problems} field="name" />
        <Rule text={NAME_RULE} />
        <label>
          Trigger
          <select value={trigger} onChange={(e) => set({ trigger: e.currentTarget.value })}>
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
        <Problem problems={problems} field="trigger" />
        <Rule text={ROBOT_RULES[1].rule} />
        {apps.length + connections.length === 0 && <p class="muted">Create an app (below) to trigger it first.</p>}
        <StepsEditor
          value={steps}
          onInput={(text) => set({ steps: text })}
          notJson={problems.steps ?? null}
          refusal={null}
        />
        <Rule text={STEPS_RULE} />
        <ProblemsSummary problems={problems} />
        <Problem problems={problems} field="" />
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
