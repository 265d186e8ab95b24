/**
 * A payment connection (Stripe) opened on the Apps page: its name, its signing secret (never shown:
 * left empty it is kept, a new one typed replaces it, or it is removed) and the event types its
 * new robots start with (PATCH /api/connections/:id). Rules first, every problem at once, a draft
 * kept without the secret, a prompt before leaving it unsaved (../forms.tsx).
 */
import { useState } from 'preact/hooks';
import { ApiError, call, type Connection } from '../api';
import {
  checkAll,
  Problem,
  problemsOfRefusal,
  ProblemsSummary,
  required,
  Rule,
  useDraft,
  useLeavePrompt,
  type Problems,
} from '../forms';
import { NAME_RULE } from './app-form';
import { StripeEvents, stripeSecretRule } from './stripe-events';

interface ConnectionDraft {
  name: string;
  signingSecret: string;
  removeSecret: boolean;
  events: string[];
}

const asDraft = (c: Connection): ConnectionDraft => ({
  name: c.name,
  signingSecret: '',
  removeSecret: false,
  events: c.events,
});

export function EditConnection(props: {
  connection: Connection;
  onSaved: (c: Connection) => void;
  onClose: () => void;
}) {
  const { connection } = props;
  const start = asDraft(connection);
  const draft = useDraft(`edit-connection:${connection.id}`, start, (d) => ({ ...d, signingSecret: '' }));
  const d = draft.value;
  const leaving = useLeavePrompt(JSON.stringify(d) !== JSON.stringify(start));
  const [problems, setProblems] = useState<Problems>({});
  const [saved, setSaved] = useState<string | null>(null);
  const set = (change: Partial<ConnectionDraft>) => {
    draft.set((before) => ({ ...before, ...change }));
    setSaved(null);
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    const found = checkAll([required('name', NAME_RULE), stripeSecretRule], {
      name: d.name,
      signingSecret: d.signingSecret,
    });
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const secret = d.removeSecret ? { signingSecret: null } : d.signingSecret ? { signingSecret: d.signingSecret } : {};
    try {
      const body = { name: d.name, events: d.events, ...secret };
      const now = await call('editConnection', { params: { id: connection.id }, body });
      draft.clear(asDraft(now));
      leaving.saved();
      setSaved(`Payment connection “${now.name}” saved.`);
      props.onSaved(now);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status === 401) throw err;
      setProblems(problemsOfRefusal(err, ['name', 'signingSecret', 'events']));
    }
  };
  return (
    <section aria-label={`Payment connection ${connection.name}`}>
      <h2>Stripe: {connection.name}</h2>
      <form onSubmit={(e) => void submit(e)} aria-label="Edit payment connection" noValidate>
        <label>
          Connection name
          <input value={d.name} onInput={(e) => set({ name: e.currentTarget.value })} />
        </label>
        <Problem problems={problems} field="name" />
        <Rule text={NAME_RULE} />
        <label>
          New signing secret
          <input
            type="password"
            autocomplete="new-password"
            value={d.signingSecret}
            disabled={d.removeSecret}
            onInput={(e) => set({ signingSecret: e.currentTarget.value })}
          />
        </label>
        <Problem problems={problems} field="signingSecret" />
        <Rule
          text={`${stripeSecretRule.rule}; left empty: ${connection.hasSigningSecret ? 'the one set is kept' : 'none'}`}
        />
        {connection.hasSigningSecret && (
          <label>
            <input
              type="checkbox"
              checked={d.removeSecret}
              onChange={(e) => set({ removeSecret: e.currentTarget.checked, signingSecret: '' })}
            />{' '}
            Remove the signing secret (events are then taken unsigned)
          </label>
        )}
        <StripeEvents value={d.events} onChange={(events) => set({ events })} problems={problems} />
        <p class="muted">Event types apply to robots made from now on; a robot's own are its trigger's.</p>
        <ProblemsSummary problems={problems} />
        <Problem problems={problems} field="" />
        <div class="actions">
          <button type="submit">Save connection</button>
          <button type="button" onClick={props.onClose}>
            Close
          </button>
        </div>
        {saved && <p role="status">{saved}</p>}
      </form>
    </section>
  );
}
