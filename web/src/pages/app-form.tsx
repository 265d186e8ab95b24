/**
 * The new-app form (on the Apps page, and on the robots page beside the robot's form): a name, the
 * sender (./senders.tsx) with its settings, the body format and what duplicates are told apart by;
 * or Stripe, picked in the same list, which makes a payment connection with its signing secret and
 * event types (./stripe-events.tsx). Its rules are shown before submit, every problem at once next
 * to its field, its draft kept across a reload (never a secret), a prompt before leaving it
 * half-filled; once made it starts again from the defaults and says what was made (../forms.tsx).
 */
import { useState } from 'preact/hooks';
import { ApiError, call, type BodyFormat } from '../api';
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
import { DedupFields, type Dedup } from './dedup';
import { NO_SENDER, SenderFields, senderFields, senderRules, verificationOf, withoutSecrets } from './senders';
import type { SenderChoice } from './senders';
import { StripeEvents, StripeSetup, stripeSecretRule } from './stripe-events';

export interface AppDraft {
  name: string;
  bodyFormat: BodyFormat;
  sender: SenderChoice;
  /** Stripe chosen: a payment connection is made. */
  stripe: boolean;
  signingSecret: string;
  events: string[];
  dedup: Dedup;
}

const DEFAULTS: AppDraft = {
  name: '',
  bodyFormat: 'json',
  sender: NO_SENDER,
  stripe: false,
  signingSecret: '',
  events: [],
  dedup: { key: 'auto' },
};

/** What a draft keeps: everything but secrets. */
const keptInDraft = (d: AppDraft): AppDraft => ({ ...d, sender: withoutSecrets(d.sender), signingSecret: '' });

/** The name's rule, as the API checks it. */
export const NAME_RULE = 'required, up to 200 characters';

export const BODY_FORMATS: Array<[BodyFormat, string]> = [
  ['json', 'JSON'],
  ['xml', 'XML'],
  ['csv', 'CSV (one run per row)'],
  ['text', 'Plain text'],
  ['form', 'Form fields (application/x-www-form-urlencoded)'],
];

export function BodyFormatField(props: { value: BodyFormat; onChange: (f: BodyFormat) => void; problems: Problems }) {
  return (
    <>
      <label>
        Body format
        <select value={props.value} onChange={(e) => props.onChange(e.currentTarget.value as BodyFormat)}>
          {BODY_FORMATS.map(([f, label]) => (
            <option key={f} value={f}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <Problem problems={props.problems} field="bodyFormat" />
    </>
  );
}

export function NewApp({ onCreated }: { onCreated: () => void }) {
  const draft = useDraft<AppDraft>('new-app', DEFAULTS, keptInDraft);
  const d = draft.value;
  const dirty = JSON.stringify(d) !== JSON.stringify(DEFAULTS);
  useLeavePrompt(dirty);
  const [problems, setProblems] = useState<Problems>({});
  const [made, setMade] = useState<string | null>(null);
  const set = (change: Partial<AppDraft>) => {
    draft.set((before) => ({ ...before, ...change }));
    setMade(null);
  };
  const rules = [required('name', NAME_RULE), ...(d.stripe ? [stripeSecretRule] : senderRules(d.sender))];
  const submit = async (e: Event) => {
    e.preventDefault();
    const found = checkAll(rules, { name: d.name, signingSecret: d.signingSecret, ...settingsOf(d.sender) });
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    try {
      if (d.stripe) {
        const body = { provider: 'stripe' as const, name: d.name, events: d.events };
        await call('createConnection', { body: d.signingSecret ? { ...body, signingSecret: d.signingSecret } : body });
      } else {
        const verification = verificationOf(d.sender);
        const body = { name: d.name, supportsInboundTrigger: true, bodyFormat: d.bodyFormat, verification };
        await call('createApp', { body: { ...body, dedup: d.dedup } });
      }
    } catch (err) {
      if (!(err instanceof ApiError) || err.status === 401) throw err;
      const fields = ['name', 'bodyFormat', 'dedup', 'signingSecret', 'events', ...senderFields(d.sender)];
      return setProblems(problemsOfRefusal(err, fields));
    }
    setMade(`${d.stripe ? 'Payment connection' : 'App'} “${d.name.trim()}” created.`);
    draft.clear();
    onCreated();
  };
  return (
    <section>
      <h2>New app</h2>
      <form onSubmit={(e) => void submit(e)} aria-label="New app" noValidate>
        <label>
          App name
          <input value={d.name} onInput={(e) => set({ name: e.currentTarget.value })} />
        </label>
        <Problem problems={problems} field="name" />
        <Rule text={NAME_RULE} />
        <SenderFields
          value={d.sender}
          onChange={(sender) => set({ sender, stripe: false })}
          onFormat={(bodyFormat) => set({ bodyFormat })}
          problems={problems}
          withStripe
          stripe={d.stripe}
          onStripe={() => set({ stripe: true, sender: NO_SENDER, bodyFormat: 'json' })}
        />
        {d.stripe ? (
          <StripeFields draft={d} set={set} problems={problems} />
        ) : (
          <>
            <BodyFormatField value={d.bodyFormat} onChange={(bodyFormat) => set({ bodyFormat })} problems={problems} />
            <DedupFields value={d.dedup} onChange={(dedup) => set({ dedup })} />
            <Problem problems={problems} field="dedup" />
          </>
        )}
        <ProblemsSummary problems={problems} />
        <Problem problems={problems} field="" />
        <button type="submit">{d.stripe ? 'Create connection' : 'Create app'}</button>
        {made && <p role="status">{made}</p>}
      </form>
    </section>
  );
}

/** The setting values of the choice, by their API path (`verification.secret`), for the rules. */
const settingsOf = (sender: SenderChoice) =>
  Object.fromEntries(Object.entries(sender.settings).map(([k, v]) => [`verification.${k}`, v]));

/** Stripe's part of the form: its set-up, its signing secret (write-only), its event types. */
function StripeFields(props: { draft: AppDraft; set: (c: Partial<AppDraft>) => void; problems: Problems }) {
  const { draft: d, set, problems } = props;
  return (
    <fieldset aria-label="What to fill in">
      <legend>Stripe (a payment connection)</legend>
      <StripeSetup />
      <label>
        Signing secret (optional)
        <input
          type="password"
          autocomplete="new-password"
          value={d.signingSecret}
          onInput={(e) => set({ signingSecret: e.currentTarget.value })}
        />
      </label>
      <Problem problems={problems} field="signingSecret" />
      <Rule text={stripeSecretRule.rule} />
      <StripeEvents value={d.events} onChange={(events) => set({ events })} problems={problems} />
    </fieldset>
  );
}
