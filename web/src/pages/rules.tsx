/**
 * Trigger rules on the robot page (docs/dashboard.md#trigger-rules): the conditions a delivery must
 * meet before a run is made, as rows of field, operator and value. A field is picked from the
 * fields seen (or typed); a value is read as the type that field was seen with (a number for a
 * field seen only as numbers), a list as comma-separated items. Saving makes a new version, which
 * deliveries accepted from then on follow; the API's refusal is shown next to the row.
 */
import { useState } from 'preact/hooks';
import { call, type Robot, type RobotFields } from '../api';
import { FieldError, SaveOrCancel, useRefusal } from './components';
import { canWrite } from '../rights';

type Rules = NonNullable<Robot['rules']>;
type Condition = Rules['conditions'][number];
type Op = Condition['op'];

const OPS: Array<[Op, string]> = [
  ['equals', 'equals'],
  ['notEquals', 'does not equal'],
  ['exists', 'exists'],
  ['notExists', 'does not exist'],
  ['in', 'is one of'],
  ['notIn', 'is none of'],
  ['matches', 'matches the pattern'],
  ['gt', '>'],
  ['gte', '≥'],
  ['lt', '<'],
  ['lte', '≤'],
];
const NO_VALUE: ReadonlySet<Op> = new Set(['exists', 'notExists']);
const LIST: ReadonlySet<Op> = new Set(['in', 'notIn']);
const NUMBER: ReadonlySet<Op> = new Set(['gt', 'gte', 'lt', 'lte']);

/** A condition as typed: its value as text. */
interface Row {
  field: string;
  op: Op;
  text: string;
}

const textOf = (c: Condition): string =>
  c.value === undefined
    ? ''
    : Array.isArray(c.value)
      ? c.value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')
      : typeof c.value === 'string'
        ? c.value
        : JSON.stringify(c.value);

/** A scalar as the type the field was seen with: a number or boolean only where that is all it was. */
function scalarOf(text: string, types: string[] | undefined): string | number | boolean {
  const only = (t: string) => types !== undefined && types.length > 0 && types.every((x) => x === t || x === 'null');
  if (only('number') && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (only('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

function conditionOf(row: Row, fields: RobotFields | null): Condition {
  const path = row.field.replace(/^trigger\.?/, '');
  const types = fields?.fields.find((f) => f.path === path)?.types;
  if (NO_VALUE.has(row.op)) return { field: row.field, op: row.op };
  if (LIST.has(row.op))
    return { field: row.field, op: row.op, value: row.text.split(',').map((t) => scalarOf(t.trim(), types)) };
  if (NUMBER.has(row.op)) return { field: row.field, op: row.op, value: Number(row.text) };
  return { field: row.field, op: row.op, value: row.op === 'matches' ? row.text : scalarOf(row.text, types) };
}

export function TriggerRules({
  robot,
  fields,
  onChange,
}: {
  robot: Robot;
  fields: RobotFields | null;
  onChange: (r: Robot) => void;
}) {
  const [editing, setEditing] = useState<{ match: Rules['match']; rows: Row[] } | null>(null);
  const { refusal, attempt } = useRefusal();
  const rules = robot.rules;
  const open = () =>
    setEditing({
      match: rules?.match ?? 'all',
      rows: (rules?.conditions ?? []).map((c) => ({ field: c.field, op: c.op, text: textOf(c) })),
    });
  const save = (e: Event) => {
    e.preventDefault();
    if (!editing) return;
    const conditions = editing.rows.map((r) => conditionOf(r, fields));
    void attempt(async () => {
      const body = { rules: conditions.length === 0 ? null : { match: editing.match, conditions } };
      onChange(await call('editRobot', { params: { id: robot.id }, body }));
      setEditing(null);
    });
  };
  const setRow = (i: number, change: Partial<Row>) =>
    editing && setEditing({ ...editing, rows: editing.rows.map((r, j) => (j === i ? { ...r, ...change } : r)) });
  return (
    <section aria-label="Trigger rules">
      <h2>Trigger rules</h2>
      {!editing ? (
        <>
          {!rules ? (
            <p>None: every delivery makes a run.</p>
          ) : (
            <>
              <p>A delivery (a CSV: each row) makes a run only when it meets {rules.match} of these:</p>
              <ul aria-label="Conditions">
                {rules.conditions.map((c, i) => (
                  <li key={i}>
                    <code>{c.field}</code> {OPS.find(([op]) => op === c.op)?.[1]}{' '}
                    {c.value !== undefined && (
                      <code>
                        {c.op === 'matches' && typeof c.value === 'string' ? `/${c.value}/` : JSON.stringify(c.value)}
                      </code>
                    )}
                  </li>
                ))}
              </ul>
            </>
          )}
          {canWrite() && (
            <button type="button" onClick={open}>
              Edit rules
            </button>
          )}
        </>
      ) : (
        <form onSubmit={save} aria-label="Edit trigger rules">
          <datalist id="seen-fields">
            {fields?.fields.map((f) => (
              <option key={f.path} value={f.path === '' ? 'trigger' : f.placeholder.slice(2, -2)} />
            ))}
          </datalist>
          <label>
            A run is made when a delivery meets
            <select
              value={editing.match}
              onChange={(e) => setEditing({ ...editing, match: e.currentTarget.value as Rules['match'] })}
            >
              <option value="all">all of the conditions</option>
              <option value="any">any of the conditions</option>
            </select>
          </label>
          {editing.rows.map((row, i) => (
            <fieldset key={i} aria-label={`Condition ${i + 1}`}>
              <input
                aria-label="Field"
                list="seen-fields"
                placeholder="trigger.customer.email or headers.x-event"
                value={row.field}
                onInput={(e) => setRow(i, { field: e.currentTarget.value })}
              />
              <select
                aria-label="Operator"
                value={row.op}
                onChange={(e) => setRow(i, { op: e.currentTarget.value as Op })}
              >
                {OPS.map(([op, label]) => (
                  <option key={op} value={op}>
                    {label}
                  </option>
                ))}
              </select>
              {!NO_VALUE.has(row.op) && (
                <input
                  aria-label="Value"
                  placeholder={LIST.has(row.op) ? 'a, b, c' : row.op === 'matches' ? '^refs/heads/main$' : 'value'}
                  value={row.text}
                  onInput={(e) => setRow(i, { text: e.currentTarget.value })}
                />
              )}
              <button
                type="button"
                onClick={() => setEditing({ ...editing, rows: editing.rows.filter((_, j) => j !== i) })}
              >
                Remove
              </button>
              <FieldError refusal={refusal} field={`rules.conditions.${i}`} />
            </fieldset>
          ))}
          <div class="actions">
            <button
              type="button"
              onClick={() => setEditing({ ...editing, rows: [...editing.rows, { field: '', op: 'equals', text: '' }] })}
            >
              Add condition
            </button>
          </div>
          {refusal?.field && /^rules(\.match|\.conditions)?$/.test(refusal.field) && (
            <p role="alert" class="error">
              {refusal.message}
            </p>
          )}
          <SaveOrCancel save="Save rules" refusal={refusal} onCancel={() => setEditing(null)} />
          <p>New rules apply to deliveries accepted from now on; no condition means no rules.</p>
        </form>
      )}
    </section>
  );
}
