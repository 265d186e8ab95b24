/**
 * Fields seen (docs/dashboard.md#fields-seen): the paths the robot's last deliveries carried, as
 * a tree. A click inserts the field's placeholder at the cursor of the open steps editor, or puts
 * it on the clipboard when the editor is closed. The steps editor marks placeholders no recent
 * delivery carried (`unseenPlaceholders`). The rules (paths, arrays by their first item) are the
 * service's own, src/domain/fields.ts, bundled here. Past FIELDS_TREE_OPEN_MAX fields the tree shows
 * its top level only, each object or list opened with ▸.
 */
import { useEffect, useState } from 'preact/hooks';
import { seenPathOf } from '../../../src/domain/fields';
import { placeholderExpressions } from '../../../src/domain/placeholders';
import { call, type Robot, type RobotFields } from '../api';
import { FIELDS_TREE_OPEN_MAX } from '../../../src/domain/limits/management';
import { plural } from './components';

type Field = RobotFields['fields'][number];

/** Placeholders of the steps typed that no delivery read carried (none while the text is not JSON). */
export function unseenPlaceholders(stepsText: string, fields: RobotFields | null): string[] {
  if (!fields || fields.deliveries === 0) return [];
  let steps: unknown;
  try {
    steps = JSON.parse(stepsText);
  } catch {
    return [];
  }
  const seen = new Set(fields.fields.map((f) => f.path));
  const unseen = placeholderExpressions(steps as never).filter((e) => !seen.has(seenPathOf(e)));
  return [...new Set(unseen)].map((e) => `{{${e}}}`);
}

/**
 * What to type into JSON text at a cursor to put a placeholder there: escaped inside a string
 * (`[\"a.b\"]`), as a string of its own outside one (the step's value is then the field's value).
 */
export function placeholderInJson(before: string, placeholder: string): string {
  let inString = false;
  for (let i = 0; i < before.length; i++) {
    if (before[i] === '\\' && inString) i++;
    else if (before[i] === '"') inString = !inString;
  }
  const quoted = JSON.stringify(placeholder);
  return inString ? quoted.slice(1, -1) : quoted;
}

/** The robot's fields, read again whenever its history shows a new delivery. */
export function useRobotFields(robot: Robot | null): RobotFields | null {
  const [fields, setFields] = useState<RobotFields | null>(null);
  const counts = robot?.deliveryCounts;
  const delivered = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : 0;
  useEffect(() => {
    if (robot) void call('robotFields', { params: { id: robot.id } }).then(setFields);
  }, [robot?.id, delivered]);
  return fields;
}

export function FieldsSeen({
  fields,
  onPick,
}: {
  fields: RobotFields | null;
  /** Puts a placeholder where it goes; says what was done with it. */
  onPick: (placeholder: string) => Promise<string>;
}) {
  const [done, setDone] = useState<string | null>(null);
  const children = new Map<string | null, Field[]>();
  for (const f of fields?.fields ?? []) {
    if (f.path === '' && f.types.every((t) => t === 'object' || t === 'array')) continue; // the root object
    const parent = f.path === '' ? null : f.parent;
    children.set(parent, [...(children.get(parent) ?? []), f]);
  }
  const pick = (f: Field) => void onPick(f.placeholder).then(setDone);
  const [opened, setOpened] = useState<Set<string>>(new Set());
  const isOpen = (path: string) => (fields?.fields.length ?? 0) <= FIELDS_TREE_OPEN_MAX || opened.has(path);
  const toggle = (path: string) => {
    const next = new Set(opened);
    if (isOpen(path)) next.delete(path);
    else next.add(path);
    setOpened(next);
  };
  const small = (fields?.fields.length ?? 0) <= FIELDS_TREE_OPEN_MAX;
  const tree = (parent: string | null) => (
    <ul role={parent === null ? 'tree' : 'group'} aria-label={parent === null ? 'Fields seen' : undefined}>
      {(children.get(parent) ?? []).map((f) => (
        <li role="treeitem" key={f.path} aria-expanded={children.has(f.path) ? isOpen(f.path) : undefined}>
          {children.has(f.path) && !small && (
            <button
              type="button"
              class="toggle"
              aria-label={`${isOpen(f.path) ? 'Close' : 'Open'} ${f.path}`}
              onClick={() => toggle(f.path)}
            >
              {isOpen(f.path) ? '▾' : '▸'}
            </button>
          )}
          <button type="button" class="field" aria-label={f.path || 'trigger'} onClick={() => pick(f)}>
            {f.path === '' ? 'trigger' : f.path.slice(parent === null ? 0 : parent.length).replace(/^\./, '')}
          </button>{' '}
          <span class="muted">
            {f.types.join(' | ')}
            {f.example !== null && (
              <>
                {' · '}
                <code>{f.example}</code>
              </>
            )}
            {fields && f.seenIn < fields.deliveries && ` · in ${f.seenIn} of ${fields.deliveries}`}
          </span>
          {children.has(f.path) && isOpen(f.path) && tree(f.path)}
        </li>
      ))}
    </ul>
  );
  return (
    <section aria-label="Fields seen">
      <h2>Fields seen</h2>
      {!fields || fields.deliveries === 0 ? (
        <p>No delivery yet: send one (or a test delivery) and its fields appear here.</p>
      ) : (
        <>
          <p>
            {plural(fields.fields.length, 'field')} from the last {plural(fields.deliveries, 'delivery', 'deliveries')}
            {fields.truncated && ' (some carried more fields than are kept)'}. Click a field to insert its placeholder
            into the steps being edited, or to copy it{small ? '' : '; ▸ opens an object or a list'}.
          </p>
          {tree(null)}
          {done && <p role="status">{done}</p>}
        </>
      )}
    </section>
  );
}
