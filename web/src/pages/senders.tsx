/**
 * Who sends an app's webhooks and how its requests are checked, from the sender catalog
 * (src/domain/senders/catalog/, pure data the dashboard bundles): the new-app form's "Sender" (found
 * by name in ./sender-picker.tsx) with exactly the settings that sender takes, and the trigger card's
 * set-up lines (a secret a sender gives in its handshake is confirmed on the card: ./handshake-secrets.tsx).
 */
import { useState } from 'preact/hooks';
import type { App, BodyFormat } from '../api';
import { SENDERS, type Sender, type SenderName, type SenderSetting } from '../../../src/domain/senders/catalog';
import { MIN_SIGNING_SECRET_LENGTH } from '../../../src/domain/limits/requests';
import { atLeast, Problem, required, Rule, shaped, type FieldRule, type Problems } from '../forms';
import { copyText } from './components';
import { SenderPicker } from './sender-picker';

/** The form's choice: no sender (unsigned), or one with its settings as typed. */
export interface SenderChoice {
  name: SenderName | null;
  settings: Record<string, string>;
}

export const NO_SENDER: SenderChoice = { name: null, settings: {} };

/** A sender picked afresh: its defaults filled in, nothing carried over from another sender. */
export function picked(name: SenderName | null): SenderChoice {
  if (!name) return NO_SENDER;
  const settings: Record<string, string> = {};
  for (const s of SENDERS[name].settings) settings[s.name] = s.default ?? '';
  return { name, settings };
}

/**
 * The choice as the API takes it (`verification`, or null: unsigned). A setting left empty is left
 * out when it may be (optional, a default, a choice not made, a secret `kept` in an edit): the API
 * then says what it needs.
 */
export function verificationOf({ name, settings }: SenderChoice, kept = false): Record<string, string> | null {
  if (!name) return null;
  const sent: Record<string, string> = { scheme: name };
  for (const s of SENDERS[name].settings) {
    const value = settings[s.name] ?? '';
    if (value === '' && (s.optional || s.default !== undefined || s.choices || (kept && s.secret))) continue;
    sent[s.name] = value;
  }
  return sent;
}

/** The choice without its secrets' values: what a draft may keep. */
export const withoutSecrets = ({ name, settings }: SenderChoice): SenderChoice => ({
  name,
  settings: Object.fromEntries(
    Object.entries(settings).filter(([k]) => !name || !SENDERS[name].settings.some((s) => s.name === k && s.secret)),
  ),
});

/** A setting's rule in words, as the API checks it (src/contract/requests.ts `settingSchema`). */
function ruleOf(s: SenderSetting, kept: boolean): FieldRule | null {
  const field = `verification.${s.name}`;
  const optional = s.optional === true || (kept && s.secret);
  if (s.choices) return null;
  if (s.name === 'header') return shaped(field, "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$", 'a header name', optional);
  if (s.pattern) return shaped(field, s.pattern.source, s.pattern.message, optional);
  const min = s.minLength ?? (s.secret ? MIN_SIGNING_SECRET_LENGTH : 1);
  if (min > 1) return atLeast(field, min, optional);
  return optional ? null : required(field);
}

/** Every rule of the chosen sender's settings; in an edit (`kept`), a secret left empty keeps the app's own. */
export const senderRules = ({ name }: SenderChoice, kept = false): FieldRule[] =>
  name ? SENDERS[name].settings.flatMap((s) => ruleOf(s, kept) ?? []) : [];

/** The fields the sender's part of the form shows, for placing the API's refusals. */
export const senderFields = ({ name }: SenderChoice): string[] => [
  'verification',
  ...(name ? SENDERS[name].settings.map((s) => `verification.${s.name}`) : []),
];

/**
 * The app form's "Sender": picking one shows its settings (secrets as password inputs, a chosen
 * token as text, a choice as a select, defaults filled in), each with its rule, its set-up text and
 * its check of the URL in words, and gives its body format to `onFormat`. In an edit (`kept`) a
 * secret left empty keeps the app's own.
 */
export function SenderFields(props: {
  value: SenderChoice;
  onChange: (choice: SenderChoice) => void;
  onFormat: (format: BodyFormat) => void;
  problems: Problems;
  kept?: boolean;
  /** Stripe, a payment connection, is offered too (the new-app form): its own fields are the form's. */
  withStripe?: boolean;
  stripe?: boolean;
  onStripe?: () => void;
}) {
  const { value, onChange, problems, kept = false } = props;
  const sender = value.name ? SENDERS[value.name] : null;
  const pick = (name: SenderName | null) => {
    onChange(picked(name));
    if (name) props.onFormat(SENDERS[name].bodyFormat);
  };
  const set = (name: string, text: string) => onChange({ ...value, settings: { ...value.settings, [name]: text } });
  return (
    <>
      <SenderPicker
        value={value.name}
        onPick={pick}
        stripe={props.withStripe ? { chosen: props.stripe === true, onPick: () => props.onStripe?.() } : undefined}
      />
      <Problem problems={problems} field="verification" />
      {!sender && !props.stripe && <p class="muted">Any request to the URL is taken: only its token protects it.</p>}
      {sender && (
        <fieldset aria-label="What to fill in">
          <legend>{sender.label}</legend>
          {sender.examples && <p class="muted">For example: {sender.examples}.</p>}
          <p aria-label="Where to paste the URL" class="muted">
            {sender.setup}
          </p>
          <HandshakeInWords sender={sender} />
          {sender.settings.length === 0 && (
            <p>
              Nothing to fill in here: {sender.label} gives its secret in its first request to the URL, kept sealed and
              pending until an editor confirms it on the robot's card
              {sender.secretFromHandshake?.pasteBack
                ? `, which then shows the ${sender.secretFromHandshake.pasteBack} once to paste back.`
                : '.'}
            </p>
          )}
          {sender.settings.map((s) => (
            <Setting
              key={s.name}
              setting={s}
              value={value.settings[s.name] ?? ''}
              onInput={(text) => set(s.name, text)}
              problems={problems}
              kept={kept}
            />
          ))}
        </fieldset>
      )}
    </>
  );
}

/** How the sender checks the URL before its first delivery, and what it is answered (its docs' words). */
function HandshakeInWords({ sender }: { sender: Sender }) {
  if (!sender.handshake) return null;
  const { request, answer } = sender.handshake;
  return (
    <p aria-label="How it checks the URL" class="muted">
      It checks the URL first: {withCode(request)}. Answered: {withCode(answer)}.
    </p>
  );
}

/** The catalog's words, with its `backquoted` parts as code. */
const withCode = (text: string) => text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part));

/** A secret is typed unseen, and the browser is not to fill in a password it keeps. */
const SECRET_INPUT = { type: 'password', autocomplete: 'new-password' } as const;
const TEXT_INPUT = { type: 'text', autocomplete: 'off' } as const;

/**
 * A secret the person chooses and pastes into the sender too: Meta's verify token (shown as text,
 * it is typed twice), and a secret with no format of the sender's own (GitHub's): these may be generated.
 */
const chosen = (s: SenderSetting) => s.name === 'verifyToken' || (s.secret && !s.minLength && !s.pattern);

/** 32 random bytes as 64 hex digits. */
export function generateSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** One setting, as the sender's console names it, with its rule, and the problem with it next to it. */
function Setting(props: {
  setting: SenderSetting;
  value: string;
  onInput: (text: string) => void;
  problems: Problems;
  kept: boolean;
}) {
  const { setting: s, value, onInput, kept } = props;
  const [generated, setGenerated] = useState(false);
  const [copied, setCopied] = useState<boolean | null>(null);
  const label = s.optional ? `${s.label} (optional)` : s.label;
  const field = `verification.${s.name}`;
  const rule = ruleOf(s, kept)?.rule;
  const asText = !s.secret || s.name === 'verifyToken' || generated;
  return (
    <>
      <label>
        {label}
        {s.choices ? (
          <select value={value} onChange={(e) => onInput(e.currentTarget.value)}>
            {s.default === undefined && <option value="">Choose…</option>}
            {s.choices.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        ) : (
          <input
            {...(asText ? TEXT_INPUT : SECRET_INPUT)}
            value={value}
            onInput={(e) => onInput(e.currentTarget.value)}
          />
        )}
      </label>
      <Problem problems={props.problems} field={field} />
      <Rule text={kept && s.secret ? `${rule ?? ''}; left empty: the app's own is kept` : rule} />
      {chosen(s) && (
        <div class="actions">
          <button
            type="button"
            onClick={() => {
              setGenerated(true);
              setCopied(null);
              onInput(generateSecret());
            }}
          >
            Generate {s.label.replace(/ \(.*\)$/, '')}
          </button>
          <button type="button" disabled={!value} onClick={() => void copyText(value).then(setCopied)}>
            Copy {s.label.replace(/ \(.*\)$/, '')}
          </button>
          {copied !== null && <span role="status">{copied ? 'Copied' : 'Not copied: select it and press Ctrl+C'}</span>}
          {generated && s.secret && s.name !== 'verifyToken' && (
            <span class="muted">Shown while you set it up: copy it into the sender now.</span>
          )}
        </div>
      )}
    </>
  );
}

/** The card's part: the app's sender, its settings that are no secret, and where to paste the URL. */
export function SenderOfApp({ verification }: { verification: NonNullable<App['verification']> }) {
  const sender = SENDERS[verification.scheme];
  /** The settings the API shows (none secret), as the sender's console names them. */
  const shown = sender.settings.flatMap((s) => {
    const value = (verification as Partial<Record<string, unknown>>)[s.name];
    return !s.secret && typeof value === 'string' && value !== '' ? [[s.label, value] as const] : [];
  });
  return (
    <div>
      <p>
        Sender: <strong>{sender.label}</strong>
      </p>
      {shown.length > 0 && (
        <ul aria-label="Its settings">
          {shown.map(([label, value]) => (
            <li key={label}>
              {label}: <code>{value}</code>
            </li>
          ))}
        </ul>
      )}
      <p aria-label="Where to paste the URL">{sender.setup}</p>
      <HandshakeInWords sender={sender} />
    </div>
  );
}
