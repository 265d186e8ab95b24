/**
 * Stripe as a sender in the app form: its set-up steps (where the URL goes in Stripe's Dashboard,
 * where its signing secret `whsec_…` is found) and the event types a robot on the connection takes:
 * the common ones listed and searched, any other typed in. What is made is a payment connection
 * (POST /api/connections), Stripe's events signed with its own scheme (src/domain/senders/catalog/stripe.ts).
 */
import { useState } from 'preact/hooks';
import { Problem, Rule, shaped, type FieldRule, type Problems } from '../forms';

/** The event types people most often take (Stripe's names); any other may be typed. */
export const COMMON_STRIPE_EVENTS = [
  'checkout.session.completed',
  'checkout.session.expired',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'charge.succeeded',
  'charge.failed',
  'charge.refunded',
  'charge.dispute.created',
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.trial_will_end',
  'invoice.created',
  'invoice.finalized',
  'invoice.paid',
  'invoice.payment_succeeded',
  'invoice.payment_failed',
  'invoice.upcoming',
  'payout.paid',
  'payout.failed',
  'product.created',
  'price.created',
] as const;

/** An event type as Stripe spells them: lower-case words joined by dots. */
const EVENT_TYPE = /^[a-z0-9_]+(\.[a-z0-9_]+)+$/;

/** The signing secret's rule: optional, Stripe's own format. */
export const stripeSecretRule: FieldRule = shaped(
  'signingSecret',
  '^whsec_\\S{10,}$',
  'whsec_ and the rest as Stripe shows it, at least 16 characters in all',
  true,
);

export function StripeSetup() {
  return (
    <ol aria-label="Set up Stripe" class="muted">
      <li>Create this connection, then a robot on it, and put the robot to work: its card shows the webhook URL.</li>
      <li>
        In Stripe's Dashboard, Developers → Webhooks → Add endpoint (or Add destination): paste the robot's URL as the
        endpoint URL and select the same event types as here.
      </li>
      <li>
        Open the endpoint in Stripe and reveal its Signing secret (<code>whsec_…</code>): paste it here. Without one,
        events are taken unsigned.
      </li>
    </ol>
  );
}

/** The event types chosen: the common ones to tick (searched), and any other typed in. */
export function StripeEvents(props: { value: string[]; onChange: (events: string[]) => void; problems: Problems }) {
  const { value, onChange } = props;
  const [search, setSearch] = useState('');
  const [typedProblem, setTypedProblem] = useState<string | null>(null);
  /** Event types not among the common ones, chosen before or typed here: still listed once unticked. */
  const [others, setOthers] = useState<string[]>(value);
  const wanted = search.trim().toLowerCase();
  const listed = [...new Set([...COMMON_STRIPE_EVENTS, ...others, ...value])].filter((e) => e.includes(wanted));
  const toggle = (event: string) =>
    onChange(value.includes(event) ? value.filter((e) => e !== event) : [...value, event]);
  const typed = search.trim();
  const add = () => {
    if (!EVENT_TYPE.test(typed)) return setTypedProblem('an event type: words joined by dots, like invoice.paid');
    setTypedProblem(null);
    if (!value.includes(typed)) onChange([...value, typed]);
    if (!others.includes(typed)) setOthers([...others, typed]);
    setSearch('');
  };
  return (
    <fieldset aria-label="Event types">
      <legend>Event types</legend>
      <Rule text="None ticked: every event. Its robots take these; Stripe sends those selected on its endpoint." />
      <label>
        Search event types, or type another
        <input
          type="search"
          value={search}
          onInput={(e) => setSearch(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
      </label>
      {typed && !listed.includes(typed) && (
        <button type="button" onClick={add}>
          Add {typed}
        </button>
      )}
      {typedProblem && (
        <p role="alert" class="error">
          {typedProblem}
        </p>
      )}
      <ul class="events">
        {listed.map((event) => (
          <li key={event}>
            <label>
              <input type="checkbox" checked={value.includes(event)} onChange={() => toggle(event)} /> {event}
            </label>
          </li>
        ))}
      </ul>
      {listed.length === 0 && <p class="muted">No common event type holds “{typed}”: Add takes it as typed.</p>}
      <p aria-label="Chosen event types">{value.length === 0 ? 'Every event.' : `Chosen: ${value.join(', ')}.`}</p>
      <Problem problems={props.problems} field="events" />
    </fieldset>
  );
}
