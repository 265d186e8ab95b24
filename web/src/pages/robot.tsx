/**
 * A robot (`/robots/:id`): what can be done to it (Stop and Rotate token ask first: ./confirm.tsx),
 * then in tabs its run history and deliveries log (both follow new ones every 2 seconds), its
 * trigger step's card (./card.tsx), and its fields seen, trigger rules and steps; Overview shows
 * them all, runs and deliveries first.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { call, ApiError, type App, type Robot, type RobotFields } from '../api';
import { offeredTransitions, takesDeliveries, type RobotTransition } from '../../../src/domain/robot-lifecycle';
import { FieldsSeen, placeholderInJson, unseenPlaceholders, useRobotFields } from './fields';
import { TriggerRules } from './rules';
import { Card } from './card';
import {
  copyText,
  FieldError,
  FOLLOW_MS,
  json,
  parseSteps,
  plural,
  SaveOrCancel,
  StateBadge,
  StepsEditor,
  TextField,
  useRefusal,
  useTitle,
} from './components';
import { ConfirmRotate, ConfirmStop } from './confirm';
import { Tabs, useTab, type Tab } from './robot-tabs';
import { Deliveries, Runs } from './robot-history';
import { canWrite } from '../rights';

export function RobotPage({ id }: { id: string }) {
  const [robot, setRobot] = useState<Robot | null>(null);
  const [app, setApp] = useState<App | null>(null);
  const [missing, setMissing] = useState(false);
  /** Counts the changes made on this page: a read started before the last one answers what it undid. */
  const changes = useRef(0);
  const changed = (r: Robot) => {
    changes.current += 1;
    setRobot(r);
  };
  const load = async () => {
    const at = changes.current;
    try {
      const read = await call('getRobot', { params: { id } });
      if (at === changes.current) setRobot(read);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) setMissing(true);
      else throw err;
    }
  };
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), FOLLOW_MS);
    return () => clearInterval(timer);
  }, [id]);
  const appId = robot?.trigger.kind === 'custom' ? robot.trigger.appId : undefined;
  useEffect(() => {
    if (appId) void call('getApp', { params: { id: appId } }).then(setApp);
  }, [appId]);
  const fields = useRobotFields(robot);
  /** Inserts a placeholder at the cursor of the steps editor while it is open. */
  const insert = useRef<((placeholder: string) => void) | null>(null);
  const pick = async (placeholder: string): Promise<string> => {
    if (insert.current) {
      insert.current(placeholder);
      return `Inserted ${placeholder} into the steps`;
    }
    return (await copyText(placeholder)) ? `Copied ${placeholder}` : `Could not copy: type ${placeholder}`;
  };
  useTitle(missing ? 'No such robot' : (robot?.name ?? null));
  const [tab, setTab] = useTab();
  if (missing) return <p>No such robot.</p>;
  if (!robot) return <p>Loading…</p>;
  const shows = (panel: Tab) => tab === 'overview' || tab === panel;
  return (
    <>
      <section>
        <h1>{robot.name}</h1>
        {canWrite() && <Rename robot={robot} onChange={changed} />}
        <p>
          State: <StateBadge state={robot.state} />
          {robot.runCounts &&
            ` · ${plural(robot.runCounts.total, 'run')} (${robot.runCounts.running} running, ` +
              `${robot.runCounts.succeeded} succeeded, ${robot.runCounts.failed} failed)`}
        </p>
        {canWrite() && <Actions robot={robot} onChange={changed} />}
      </section>
      <Tabs tab={tab} onTab={setTab} />
      {shows('runs') && <Runs robotId={robot.id} />}
      {shows('deliveries') && <Deliveries robotId={robot.id} />}
      {shows('card') && <Card robot={robot} app={app} onChange={changed} onAppChange={setApp} />}
      {shows('steps') && (
        <>
          <FieldsSeen fields={fields} onPick={pick} />
          <TriggerRules robot={robot} fields={fields} onChange={changed} />
          <EditSteps robot={robot} onChange={changed} fields={fields} insert={insert} />
        </>
      )}
    </>
  );
}

/** The buttons of the lifecycle's transitions (which a state offers: src/domain/robot-lifecycle.ts). */
const TRANSITION_LABELS: Record<RobotTransition, string> = {
  start: 'Put to work',
  pause: 'Pause',
  resume: 'Resume',
  stop: 'Stop',
};

function Actions({ robot, onChange }: { robot: Robot; onChange: (r: Robot) => void }) {
  const { refusal, attempt } = useRefusal();
  const act = (request: () => Promise<Robot>) => () => void attempt(async () => onChange(await request()));
  const [sent, setSent] = useState<string | null>(null);
  /** A sample body in the app's format through the real path: its fields and run appear below. */
  const sendTest = () =>
    void attempt(async () => {
      setSent(null);
      const { deliveryId } = await call('sendTestDelivery', { params: { id: robot.id }, body: {} });
      setSent(
        robot.state === 'paused'
          ? `Test delivery ${deliveryId} sent: it waits until the robot is resumed`
          : `Test delivery ${deliveryId} sent: its fields and run appear below`,
      );
    });
  const params = { id: robot.id };
  /** Stop and Rotate token ask first what senders will get (./confirm.tsx). */
  const [asking, setAsking] = useState<'stop' | 'rotate' | null>(null);
  const asked = (request: () => Promise<Robot>) => () => {
    setAsking(null);
    act(request)();
  };
  const button = (label: string, request: () => Promise<Robot>) => (
    <button type="button" key={label} onClick={act(request)}>
      {label}
    </button>
  );
  const transition = (t: RobotTransition) =>
    t === 'stop' ? (
      <button type="button" key={t} onClick={() => setAsking('stop')}>
        {TRANSITION_LABELS[t]}
      </button>
    ) : (
      button(TRANSITION_LABELS[t], () => call(t, { params }))
    );
  return (
    <div class="actions">
      <FieldError refusal={refusal} />
      {offeredTransitions(robot.state).map(transition)}
      {robot.trigger.identifier && (
        <button type="button" onClick={() => setAsking('rotate')}>
          Rotate token
        </button>
      )}
      {asking === 'stop' && (
        <ConfirmStop
          robot={robot}
          onStop={asked(() => call('stop', { params }))}
          onPause={asked(() => call('pause', { params }))}
          onClose={() => setAsking(null)}
        />
      )}
      {asking === 'rotate' && (
        <ConfirmRotate
          robot={robot}
          onRotate={(graceHours) => asked(() => call('rotateToken', { params, body: { graceHours } }))()}
          onClose={() => setAsking(null)}
        />
      )}
      {takesDeliveries(robot.state) && (
        <button type="button" onClick={sendTest}>
          Send test delivery
        </button>
      )}
      {sent && <span role="status">{sent}</span>}
    </div>
  );
}

/** Renaming the robot: its name is all that changes (its URL, steps and history stay). */
function Rename({ robot, onChange }: { robot: Robot; onChange: (r: Robot) => void }) {
  const [name, setName] = useState<string | null>(null);
  const { refusal, attempt } = useRefusal();
  if (name === null)
    return (
      <button type="button" onClick={() => setName(robot.name)}>
        Rename
      </button>
    );
  const save = (e: Event) => {
    e.preventDefault();
    void attempt(async () => {
      onChange(await call('editRobot', { params: { id: robot.id }, body: { name } }));
      setName(null);
    });
  };
  return (
    <form onSubmit={save} aria-label="Rename robot">
      <TextField label="Name" value={name} onInput={setName} refusal={refusal} field="name" />
      <SaveOrCancel save="Save name" refusal={refusal} onCancel={() => setName(null)} />
    </form>
  );
}

function EditSteps({
  robot,
  onChange,
  fields,
  insert,
}: {
  robot: Robot;
  onChange: (r: Robot) => void;
  fields: RobotFields | null;
  insert: { current: ((placeholder: string) => void) | null };
}) {
  const [open, setOpen] = useState(false);
  const [steps, setSteps] = useState('');
  const textarea = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (!open) return;
    insert.current = (placeholder) => {
      const el = textarea.current;
      if (!el) return;
      const [start, end] = [el.selectionStart, el.selectionEnd];
      const typed = placeholderInJson(el.value.slice(0, start), placeholder);
      setSteps(el.value.slice(0, start) + typed + el.value.slice(end));
      requestAnimationFrame(() => {
        el.focus();
        el.setSelectionRange(start + typed.length, start + typed.length);
      });
    };
    return () => void (insert.current = null);
  }, [open]);
  const { refusal, attempt } = useRefusal();
  const [notJson, setNotJson] = useState<string | null>(null);
  const save = (e: Event) => {
    e.preventDefault();
    const parsed = parseSteps(steps);
    setNotJson('notJson' in parsed ? parsed.notJson : null);
    if ('notJson' in parsed) return;
    void attempt(async () => {
      onChange(await call('editRobot', { params: { id: robot.id }, body: { steps: parsed.steps } }));
      setOpen(false);
    });
  };
  return (
    <section>
      <h2>Steps (version {robot.stepsVersion})</h2>
      {!open ? (
        <>
          <pre>{json(robot.steps)}</pre>
          {canWrite() && (
            <button
              type="button"
              onClick={() => {
                setSteps(json(robot.steps));
                setOpen(true);
              }}
            >
              Edit steps
            </button>
          )}
        </>
      ) : (
        <form onSubmit={save} aria-label="Edit steps">
          <StepsEditor
            value={steps}
            onInput={setSteps}
            notJson={notJson}
            refusal={refusal}
            textarea={textarea}
            unseen={{ placeholders: unseenPlaceholders(steps, fields), deliveries: fields?.deliveries ?? 0 }}
          />
          <SaveOrCancel save="Save steps" refusal={refusal} onCancel={() => setOpen(false)} />
          <p>New steps apply to deliveries accepted from now on.</p>
        </form>
      )}
    </section>
  );
}
