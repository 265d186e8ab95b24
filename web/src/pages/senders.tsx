/**
 * Who sends an app's webhooks and how its requests are checked, from the sender catalog
 * (src/domain/senders/catalog/, pure data the dashboard bundles): the new-app form's "Sender" (found
 * by name in ./sender-picker.tsx) with exactly the settings that sender takes, and the trigger card's
 * set-up lines (a secret a sender gives in its handshake is confirmed on the card: ./handshake-secrets.tsx).
 */
import type { ApiError, App, BodyFormat } from '../api';
import { SENDERS, type Sender, type SenderName, type SenderSetting } from '../../../src/domain/senders/catalog';
import { FieldError } from './components';
import { SenderPicker } from './sender-picker';

/** The form's choice: no sender (unsigned), or one with its settings as typed. */
export interface SenderChoice {
  name: SenderName | null;
  settings: Record<string, string>;
}

export const NO_SENDER: SenderChoice = { name: null, settings: {} };

/** A sender picked afresh: its defaults filled in, nothing carried over from another sender. */
function picked(name: SenderName | null): SenderChoice {
  if (!name) return NO_SENDER;
  const settings: Record<string, string> = {};
  for (const s of SENDERS[name].settings) settings[s.name] = s.default ?? '';
  return { name, settings };
}

/**
 * The choice as the API takes it (`verification`, or null: unsigned). A setting left empty is left
 * out when it may be (optional, a default, a choice not made): the API then says what it needs.
 */
export function verificationOf({ name, settings }: SenderChoice): Record<string, string> | null {
  if (!name) return null;
  const sent: Record<string, string> = { scheme: name };
  for (const s of SENDERS[name].settings) {
    const value = settings[s.name] ?? '';
    if (value === '' && (s.optional || s.default !== undefined || s.choices)) continue;
    sent[s.name] = value;
  }
  return sent;
}

/** The request fields the app form shows itself: a refusal of another `verification.*` shows at the select. */
const shownFields = (name: SenderName | null) => (name ? SENDERS[name].settings : []);

/**
 * The new-app form's "Sender": picking one shows its settings (secrets as password inputs, a
 * choice as a select, defaults filled in), its set-up text and its check of the URL in words, and
 * gives its body format to `onFormat`.
 */
export function SenderFields(props: {
  value: SenderChoice;
  onChange: (choice: SenderChoice) => void;
  onFormat: (format: BodyFormat) => void;
  refusal: ApiError | null;
}) {
  const { value, onChange, refusal } = props;
  const sender = value.name ? SENDERS[value.name] : null;
  const pick = (name: SenderName | null) => {
    onChange(picked(name));
    if (name) props.onFormat(SENDERS[name].bodyFormat);
  };
  const set = (name: string, text: string) => onChange({ ...value, settings: { ...value.settings, [name]: text } });
  const field = refusal?.field ?? '';
  const atSelect =
    field === 'verification' ||
    (field.startsWith('verification.') && !shownFields(value.name).some((s) => field === `verification.${s.name}`));
  return (
    <>
      <SenderPicker value={value.name} onPick={pick} />
      {atSelect && (
        <p role="alert" class="error">
          {refusal!.message}
        </p>
      )}
      {!sender && <p class="muted">Any request to the URL is taken: only its token protects it.</p>}
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
              refusal={refusal}
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

/** One setting, as the sender's console names it, with the API's refusal of it under it. */
function Setting(props: {
  setting: SenderSetting;
  value: string;
  onInput: (text: string) => void;
  refusal: ApiError | null;
}) {
  const { setting: s, value, onInput } = props;
  const label = s.optional ? `${s.label} (optional)` : s.label;
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
            {...(s.secret ? SECRET_INPUT : TEXT_INPUT)}
            value={value}
            onInput={(e) => onInput(e.currentTarget.value)}
          />
        )}
      </label>
      <FieldError refusal={props.refusal} field={`verification.${s.name}`} />
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
