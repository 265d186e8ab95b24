/** Small pieces the pages share. */
import type { Ref } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { link } from '../nav';
import { ApiError, type Robot, type Steps } from '../api';

const STATE_NAMES: Record<Robot['state'], string> = {
  draft: 'Draft',
  at_work: 'At work',
  paused: 'Paused',
  stopped: 'Stopped',
};
export const stateName = (state: Robot['state']) => STATE_NAMES[state];

/** A count with its noun in good grammar: "1 run", "2 runs", "1 delivery", "3 deliveries". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en')} ${count === 1 ? one : many}`;
}

/** How a status reads at a glance: each outcome, run status and robot state has its colour. */
const TONES: Record<string, 'good' | 'bad' | 'warn' | 'idle' | 'busy'> = {
  at_work: 'good',
  paused: 'warn',
  stopped: 'bad',
  draft: 'idle',
  processed: 'good',
  succeeded: 'good',
  done: 'good',
  filtered: 'idle',
  duplicate: 'idle',
  handshake: 'idle',
  dropped: 'warn',
  started: 'warn',
  running: 'busy',
  rejected: 'bad',
  refused: 'bad',
  failed: 'bad',
  open: 'bad',
  acknowledged: 'warn',
  resolved: 'good',
  ok: 'good',
  failing: 'bad',
};

/**
 * A status in colour (a robot's state, a delivery's outcome, a run's status, an audit entry's outcome, an
 * issue's status, a notification channel's).
 */
export function Badge({ status, label }: { status: string; label?: string }) {
  return <span class={`badge ${TONES[status] ?? 'idle'}`}>{label ?? status}</span>;
}

/** A robot's state as a badge, in the product's words. */
export const StateBadge = ({ state }: { state: Robot['state'] }) => <Badge status={state} label={stateName(state)} />;

/** Sets the browser tab's title for the page shown: "<what> · Webhook triggers". */
export function useTitle(title: string | null): void {
  useEffect(() => {
    document.title = title ? `${title} · Webhook triggers` : 'Webhook triggers';
  }, [title]);
}

/** How often an open page reads what it follows: a robot, its first pages of runs and deliveries, a running run. */
export const FOLLOW_MS = 2000;

export const formatTime = (iso: string) => new Date(iso).toLocaleString();

/**
 * The API's refusal next to the field it names (`field` is a prefix: `steps` shows `steps.0.name`),
 * or, without `field`, a refusal that names no field shown in the form.
 */
export function FieldError({ refusal, field }: { refusal: ApiError | null; field?: string }) {
  if (!refusal) return null;
  const named = refusal.field ?? '';
  const mine = field
    ? named === field || named.startsWith(`${field}.`)
    : !named || !KNOWN.some((k) => named.startsWith(k));
  if (!mine) return null;
  return (
    <p role="alert" class="error">
      {refusal.message}
    </p>
  );
}
const KNOWN = ['name', 'trigger', 'steps', 'rules', 'dedup', 'verification', 'bodyFormat'];

/** A form's state: what the API said was wrong, and where. */
export function useRefusal() {
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  const attempt = async (action: () => Promise<void>) => {
    setRefusal(null);
    try {
      await action();
    } catch (err) {
      if (err instanceof ApiError && err.status !== 401) setRefusal(err);
      else throw err;
    }
  };
  return { refusal, attempt };
}

/**
 * Puts text on the clipboard. A page served over plain HTTP from another host than localhost has
 * no clipboard API: there the browser is asked to copy a selection of it. Resolves whether it was copied.
 */
export async function copyText(text: string): Promise<boolean> {
  if (navigator.clipboard) {
    await navigator.clipboard.writeText(text);
    return true;
  }
  const area = document.createElement('textarea');
  area.value = text;
  document.body.append(area);
  area.select();
  try {
    return document.execCommand('copy');
  } finally {
    area.remove();
  }
}

/**
 * Puts text shown on the page on the clipboard. A page served over plain HTTP from another host
 * than localhost has no clipboard API: there the element labelled `label` is selected and the
 * browser asked to copy the selection. Resolves whether it was copied (else it is left selected).
 */
export async function copyShown(text: string, label: string): Promise<boolean> {
  if (navigator.clipboard) return copyText(text);
  const shown = document.querySelector(`[aria-label="${CSS.escape(label)}"]`);
  const selection = window.getSelection();
  if (!shown || !selection) return false;
  const range = document.createRange();
  range.selectNodeContents(shown);
  selection.removeAllRanges();
  selection.addRange(range);
  return document.execCommand('copy');
}

export const json = (value: unknown) => JSON.stringify(value, null, 2);

/** The end of an edit form: the API's refusal that names no field shown, then Save and Cancel. */
export function SaveOrCancel(props: { save: string; refusal: ApiError | null; onCancel: () => void }) {
  return (
    <>
      <FieldError refusal={props.refusal} />
      <div class="actions">
        <button type="submit">{props.save}</button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </>
  );
}

/** A text field with the API's refusal of it shown under it. */
export function TextField(props: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  refusal: ApiError | null;
  field: string;
  type?: 'text' | 'password';
}) {
  return (
    <>
      <label>
        {props.label}
        {props.type === 'password' ? (
          <input type="password" value={props.value} onInput={(e) => props.onInput(e.currentTarget.value)} />
        ) : (
          <input value={props.value} onInput={(e) => props.onInput(e.currentTarget.value)} />
        )}
      </label>
      <FieldError refusal={props.refusal} field={props.field} />
    </>
  );
}

/** Steps as JSON text, parsed before they are sent: the parse error, or the API's refusal of `steps`. */
export function StepsEditor(props: {
  value: string;
  onInput: (value: string) => void;
  notJson: string | null;
  refusal: ApiError | null;
  /** The textarea, for inserting at its cursor. */
  textarea?: Ref<HTMLTextAreaElement>;
  /** Placeholders typed that no recent delivery carried, and of how many deliveries. */
  unseen?: { placeholders: string[]; deliveries: number };
}) {
  const { unseen } = props;
  return (
    <>
      <label>
        Steps (JSON)
        <textarea
          ref={props.textarea}
          value={props.value}
          onInput={(e) => props.onInput(e.currentTarget.value)}
          spellcheck={false}
        />
      </label>
      {unseen && unseen.placeholders.length > 0 && (
        <ul aria-label="Placeholders never seen" class="warning">
          {unseen.placeholders.map((p) => (
            <li key={p}>
              <code>{p}</code>: never seen in the last {unseen.deliveries} deliver
              {unseen.deliveries === 1 ? 'y' : 'ies'} (it reads as an empty string)
            </li>
          ))}
        </ul>
      )}
      {props.notJson && (
        <p role="alert" class="error">
          {props.notJson}
        </p>
      )}
      <FieldError refusal={props.refusal} field="steps" />
    </>
  );
}

/**
 * The steps typed, parsed: the value, or why it is not JSON. Its shape is the API's to check: a
 * wrong one is refused with 400 naming the field, which the form shows.
 */
export function parseSteps(text: string): { steps: Steps } | { notJson: string } {
  try {
    return { steps: JSON.parse(text) as Steps };
  } catch (err) {
    return { notJson: `Not JSON: ${(err as Error).message}` };
  }
}

/**
 * A run's or a delivery's way back to its robot, and for the operator (the API gives the link to the admin
 * token only) its workflow in the Temporal Web UI.
 */
export function BackToRobot({ robotId, workflowUrl }: { robotId: string; workflowUrl?: string | null }) {
  return (
    <p>
      <a href={`/robots/${robotId}`} onClick={link(`/robots/${robotId}`)}>
        Back to the robot
      </a>
      {workflowUrl && (
        <>
          {' · '}
          <a href={workflowUrl} target="_blank" rel="noreferrer">
            Open in the Temporal Web UI
          </a>
        </>
      )}
    </p>
  );
}

/** Links to robots, by name, comma-separated ('none' when there are none). */
export function RobotLinks({ robots }: { robots: Robot[] }) {
  if (robots.length === 0) return <span class="muted">none</span>;
  return (
    <>
      {robots.map((r, i) => (
        <span key={r.id}>
          {i > 0 && ', '}
          <a href={`/robots/${r.id}`} onClick={link(`/robots/${r.id}`)}>
            {r.name}
          </a>
        </span>
      ))}
    </>
  );
}
