/**
 * The card's "Secrets senders gave in handshakes" (Asana, Notion: src/robots/handshake-secrets.ts).
 * Anyone holding the URL can send such a handshake, so a secret it gives is kept pending on the
 * robot's URL until an editor confirms it here; the card lists the pending ones (fingerprint, time,
 * address, never the secret) with Confirm, and the confirmed one. Confirming Notion's token shows
 * it this once, with Copy, to paste back into Notion: no answer shows it again, so a reload does not.
 * A viewer reads no credential: the API leaves the secrets out of its card, and no control is offered.
 */
import { useState } from 'preact/hooks';
import { call, type Robot } from '../api';
import type { SenderName } from '../../../src/domain/senders/catalog';
import { SENDERS } from '../../../src/domain/senders/catalog';
import { canWrite } from '../rights';
import { copyShown, FieldError, formatTime, useRefusal } from './components';

type Secrets = NonNullable<NonNullable<Robot['trigger']['card']>['handshakeSecrets']>;
type Secret = Secrets['pending'][number];

/** Where a secret came from, and when. */
const origin = (s: Secret) => `received ${formatTime(s.receivedAt)} from ${s.address}`;

export function HandshakeSecrets(props: {
  robot: Robot;
  scheme: SenderName;
  /** The app kept a secret from a handshake before 0.11: its robots use it until one of theirs is confirmed. */
  appKept: boolean;
  onChange: (robot: Robot) => void;
}) {
  const { robot, scheme, appKept } = props;
  const sender = SENDERS[scheme];
  const [pasteBack, setPasteBack] = useState<{ label: string; value: string } | null>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  const { refusal, attempt } = useRefusal();
  if (!canWrite())
    return (
      <p class="muted">
        {sender.label} gives its secret in its first request to the URL; an editor confirms it on this card.
      </p>
    );
  const { confirmed = null, pending = [] } = robot.trigger.card?.handshakeSecrets ?? {};
  const confirm = (fingerprint: string) =>
    void attempt(async () => {
      const answer = await call('confirmHandshakeSecret', { params: { id: robot.id }, body: { fingerprint } });
      setCopied(null);
      setPasteBack(answer.pasteBack);
      props.onChange(answer.robot);
    });
  return (
    <section aria-label="Secrets senders gave in handshakes">
      <h3>Secrets senders gave in handshakes</h3>
      <p class="muted">An event signed with a pending secret is refused until an editor confirms that secret.</p>
      {!confirmed && pending.length === 0 && !appKept && (
        <p class="warning">
          Waiting for {sender.label}'s first request to the URL: it gives the secret, kept pending here until you
          confirm it. Until then every delivery is refused.
        </p>
      )}
      {!confirmed && appKept && (
        <p>The secret {sender.label} gave this app before is used until one given to this URL is confirmed.</p>
      )}
      {confirmed && (
        <p>
          Confirmed: <code aria-label="Confirmed secret">{confirmed.fingerprint}</code> ({origin(confirmed)}
          {confirmed.confirmedAt && `, confirmed ${formatTime(confirmed.confirmedAt)}`})
        </p>
      )}
      {pending.length > 0 && (
        <>
          <p>
            Anyone holding the URL can send a handshake: confirm the one that came when you set up {sender.label} (its
            time and address); the others are dropped.
          </p>
          <table aria-label="Pending secrets">
            <thead>
              <tr>
                <th>Fingerprint</th>
                <th>Received</th>
                <th>Address</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {pending.map((s) => (
                <tr key={s.fingerprint}>
                  <td>
                    <code>{s.fingerprint}</code>
                  </td>
                  <td>{formatTime(s.receivedAt)}</td>
                  <td>{s.address}</td>
                  <td>
                    <button type="button" onClick={() => confirm(s.fingerprint)}>
                      Confirm
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <FieldError refusal={refusal} />
      {pasteBack && (
        <>
          <p>
            {pasteBack.label}: <code aria-label={pasteBack.label}>{pasteBack.value}</code>
          </p>
          <p class="warning">Shown this once: paste it into {sender.label}'s "Verify".</p>
          <div class="actions">
            <button type="button" onClick={() => void copyShown(pasteBack.value, pasteBack.label).then(setCopied)}>
              Copy {pasteBack.label}
            </button>
            {copied !== null && <span role="status">{copied ? 'Copied' : 'Selected: press Ctrl+C to copy'}</span>}
          </div>
        </>
      )}
    </section>
  );
}
