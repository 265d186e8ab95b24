/**
 * A new notification channel, on the settings page (./settings.tsx): a webhook (a URL it POSTs
 * signed JSON to), a Slack incoming webhook's URL, or an email address. A webhook channel's signing
 * secret is in the answer that made it only: shown here once, with Copy, until "I have copied it".
 * The API's refusal (a URL on a private address, email with no SMTP server set) shows at its field.
 */
import { useState } from 'preact/hooks';
import { ApiError, call, type ChannelKind } from '../api';
import { FieldError, TextField, useRefusal } from './components';
import { ShownOnce } from './shown-once';

const KIND_HINTS: Record<ChannelKind, string> = {
  webhook: 'Webhook (a signed JSON POST to your URL)',
  slack: 'Slack (an incoming webhook’s URL)',
  email: 'Email (through the service’s SMTP server)',
};

/** The fields this form shows, so a refusal naming one is shown there and not again below. */
const FIELDS = ['kind', 'url', 'to'];
const elsewhere = (refusal: ApiError | null) => (refusal && FIELDS.includes(refusal.field ?? '') ? null : refusal);

export function NewChannel({ onCreated }: { onCreated: () => void }) {
  const [kind, setKind] = useState<ChannelKind>('webhook');
  const [url, setUrl] = useState('');
  const [to, setTo] = useState('');
  const [made, setMade] = useState<{ url: string; secret: string } | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const { refusal, attempt } = useRefusal();
  const submit = (e: Event) => {
    e.preventDefault();
    void attempt(async () => {
      setSaid(null);
      const body = kind === 'email' ? { kind, to } : { kind, url };
      const created = await call('createNotificationChannel', { body });
      setMade(created.secret ? { url: created.url ?? '', secret: created.secret } : null);
      setSaid(`Channel added: ${created.url ?? created.to ?? ''}.`);
      setUrl('');
      setTo('');
      onCreated();
    });
  };
  return (
    <section>
      <h2>Add a channel</h2>
      {made && (
        <ShownOnce
          key={made.secret}
          region="Signing secret"
          valueLabel="Secret value"
          value={made.secret}
          copy="Copy secret"
          onDone={() => setMade(null)}
        >
          The webhook to {made.url} signs each notification with this secret (Standard Webhooks: the webhook-id,
          webhook-timestamp and webhook-signature headers):
        </ShownOnce>
      )}
      {said && !made && <p role="status">{said}</p>}
      <form onSubmit={submit} aria-label="New channel">
        <label>
          Kind
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value as ChannelKind)}>
            {(Object.keys(KIND_HINTS) as ChannelKind[]).map((k) => (
              <option key={k} value={k}>
                {KIND_HINTS[k]}
              </option>
            ))}
          </select>
        </label>
        <FieldError refusal={refusal} field="kind" />
        {kind === 'email' ? (
          <TextField label="Email address" value={to} onInput={setTo} refusal={refusal} field="to" />
        ) : (
          <TextField
            label={kind === 'slack' ? 'Incoming webhook URL' : 'URL'}
            value={url}
            onInput={setUrl}
            refusal={refusal}
            field="url"
          />
        )}
        <p class="muted">
          {kind === 'email'
            ? 'An address, up to 254 characters.'
            : 'http:// or https://; never a private or loopback address unless the service allows it.'}
        </p>
        <button type="submit">Add channel</button>
        <FieldError refusal={elsewhere(refusal)} />
      </form>
    </section>
  );
}
