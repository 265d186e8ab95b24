/**
 * What an app's deliveries are told apart by, and for how long (docs/api.md#deduplication): the
 * fields of the new-app form and of the trigger card's "Change" form, and the card's line.
 */
import { useState } from 'preact/hooks';
import { call, type App } from '../api';
import { FieldError, SaveOrCancel, useRefusal } from './components';
import { canWrite } from '../rights';

export type Dedup = App['dedup'];

const KEYS: Array<[Dedup['key'], string]> = [
  ['auto', "the sender's id, else the body (auto)"],
  ['header', 'a header I name'],
  ['jsonPath', 'a JSON path in the body'],
  ['body', 'the whole body'],
  ['none', 'nothing: every delivery runs'],
];

/** How the card says it: "the header x-request-id, for 72 hours". */
export function describeDedup(d: Dedup): string {
  const what =
    d.key === 'header'
      ? `the header ${d.header ?? ''}`
      : d.key === 'jsonPath'
        ? `the body's ${d.path ?? ''}`
        : KEYS.find(([k]) => k === d.key)![1];
  if (d.key === 'none') return 'Every delivery runs: none is a duplicate.';
  const window =
    d.windowSeconds === undefined
      ? d.key === 'body' || d.key === 'auto'
        ? 'for 72 hours (an id) or 1 hour (the body)'
        : 'for 72 hours'
      : `for ${d.windowSeconds} s`;
  return `A repeat is told apart by ${what}, ${window}.`;
}

/** The choice's inputs; `onChange` hears the choice as the API takes it. */
export function DedupFields({ value, onChange }: { value: Dedup; onChange: (d: Dedup) => void }) {
  const set = (change: Partial<Dedup>) => {
    const next: Dedup = { ...value, ...change };
    if (next.key !== 'header') delete next.header;
    if (next.key !== 'jsonPath') delete next.path;
    if (next.windowSeconds === undefined || Number.isNaN(next.windowSeconds)) delete next.windowSeconds;
    onChange(next);
  };
  return (
    <>
      <label>
        Duplicates are told apart by
        <select value={value.key} onChange={(e) => set({ key: e.currentTarget.value as Dedup['key'] })}>
          {KEYS.map(([key, label]) => (
            <option key={key} value={key}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {value.key === 'header' && (
        <label>
          Header name
          <input value={value.header ?? ''} onInput={(e) => set({ header: e.currentTarget.value })} />
        </label>
      )}
      {value.key === 'jsonPath' && (
        <label>
          JSON path
          <input
            placeholder="trigger.event.id"
            value={value.path ?? ''}
            onInput={(e) => set({ path: e.currentTarget.value })}
          />
        </label>
      )}
      {value.key !== 'none' && (
        <label>
          Window in seconds (empty: the default)
          <input
            inputMode="numeric"
            value={value.windowSeconds ?? ''}
            onInput={(e) =>
              set({ windowSeconds: e.currentTarget.value === '' ? undefined : Number(e.currentTarget.value) })
            }
          />
        </label>
      )}
    </>
  );
}

/** The card's line, and a form to change the app's choice. */
export function DedupOfApp({ app, onChange }: { app: App; onChange: (a: App) => void }) {
  const [editing, setEditing] = useState<Dedup | null>(null);
  const { refusal, attempt } = useRefusal();
  if (!editing)
    return (
      <p>
        {describeDedup(app.dedup)}{' '}
        {canWrite() && (
          <button type="button" onClick={() => setEditing(app.dedup)}>
            Change
          </button>
        )}
      </p>
    );
  const save = (e: Event) => {
    e.preventDefault();
    void attempt(async () => {
      onChange(await call('editApp', { params: { id: app.id }, body: { dedup: editing } }));
      setEditing(null);
    });
  };
  return (
    <form onSubmit={save} aria-label="Duplicates">
      <DedupFields value={editing} onChange={setEditing} />
      <FieldError refusal={refusal} field="dedup" />
      <SaveOrCancel save="Save" refusal={refusal} onCancel={() => setEditing(null)} />
    </form>
  );
}
