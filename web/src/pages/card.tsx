/**
 * The trigger step's card (`/robots/:id`): the URL once the robot is at work (spec §1.8), with
 * "Copy URL" and a curl example for the app's body format (masked for a viewer, without either);
 * the app's sender and where to paste the URL; the secrets senders gave in handshakes
 * (./handshake-secrets.tsx); what the app's duplicates are told apart by.
 */
import { useState } from 'preact/hooks';
import type { App, Robot } from '../api';
import { appSample } from '../../../src/domain/samples';
import { SENDERS } from '../../../src/domain/senders/catalog';
import { DedupOfApp } from './dedup';
import { SenderOfApp } from './senders';
import { HandshakeSecrets } from './handshake-secrets';
import { copyShown, formatTime } from './components';

/**
 * A request a sender could make: the app's sender's sample when it is in the app's body format,
 * else the format's (the test delivery's too).
 */
function curlExample(url: string, app: App | null): string {
  const format = app?.bodyFormat ?? 'json';
  const { contentType: type, body } = appSample(format, app?.verification?.scheme ?? null);
  const quoted = body.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n');
  return `curl -X POST '${url}' \\\n  -H 'Content-Type: ${type}' \\\n  --data-binary $'${quoted}'`;
}

/**
 * The trigger step's card. A viewer is answered no live URL (its token is the senders' credential):
 * the masked one is shown instead, with neither Copy URL nor a curl example.
 */
export function Card(props: {
  robot: Robot;
  app: App | null;
  onChange: (r: Robot) => void;
  onAppChange: (a: App) => void;
}) {
  const { robot, app } = props;
  const live = robot.trigger.card?.webhookUrl ?? null;
  const url = live ?? robot.trigger.card?.maskedUrl ?? null;
  const [copied, setCopied] = useState<boolean | null>(null);
  const atWork = robot.state === 'at_work' || robot.state === 'paused';
  const scheme = app?.verification?.scheme;
  return (
    <section aria-label="Trigger step">
      <h2>Trigger: {robot.trigger.kind === 'stripe' ? 'payment provider' : `${app?.name ?? 'app'} webhook`}</h2>
      {!url || !atWork ? (
        <p>The webhook URL appears here once the robot is put to work.</p>
      ) : (
        <>
          <p>
            Webhook URL: <code aria-label="Webhook URL">{url}</code>
          </p>
          {live ? (
            <div class="actions">
              <button type="button" onClick={() => void copyShown(live, 'Webhook URL').then(setCopied)}>
                Copy URL
              </button>
              {copied !== null && <span role="status">{copied ? 'Copied' : 'Selected: press Ctrl+C to copy'}</span>}
            </div>
          ) : (
            <p class="muted">Its token is masked: editors, owners and the admin see the URL.</p>
          )}
          {robot.trigger.card?.previousTokenExpiresAt && (
            <p>The previous URL keeps working until {formatTime(robot.trigger.card.previousTokenExpiresAt)}.</p>
          )}
          {robot.state === 'paused' && <p>Paused: deliveries are accepted and wait until the robot is resumed.</p>}
          {live && (
            <>
              <p>Try it:</p>
              <pre aria-label="curl example">{curlExample(live, app)}</pre>
              {app?.verification && (
                <p class="muted">
                  Sent so, unsigned, it is refused: only {SENDERS[app.verification.scheme].label} can sign it. Send test
                  delivery takes the same body as if it had been checked.
                </p>
              )}
              {robot.trigger.kind === 'stripe' && (
                <p class="muted" aria-label="Stripe's signed test">
                  Sent so, unsigned, it is refused (400) when the connection has a signing secret: only Stripe can sign
                  it. For a signed test event, add the URL as an endpoint in Stripe's test mode and run{' '}
                  <code>stripe trigger {robot.trigger.events?.[0] ?? 'payment_intent.succeeded'}</code> (the Stripe
                  CLI). Send test delivery takes a sample event as if it had been checked.
                </p>
              )}
            </>
          )}
        </>
      )}
      {app?.verification && <SenderOfApp verification={app.verification} />}
      {scheme && SENDERS[scheme].secretFromHandshake && (
        <HandshakeSecrets
          robot={robot}
          scheme={scheme}
          appKept={app?.verification?.secretFromHandshake === 'kept'}
          onChange={props.onChange}
        />
      )}
      {app && <DedupOfApp app={app} onChange={props.onAppChange} />}
    </section>
  );
}
