/**
 * Linear as the tests play it. Linear's library (`@linear/sdk`, `LinearWebhookClient`) only verifies, so
 * deliveries are signed by the algorithm it checks and Linear's webhooks guide describes:
 * `Linear-Signature: <hex HMAC-SHA256 of the raw body>` under the webhook's signing secret taken as text.
 * The signed time is not a header but the body's `webhookTimestamp` (unix ms); the library refuses one more
 * than 60 s from now, either way. A delivery's body therefore changes with the time it is sent: `signed`
 * writes `at` into it (use `linearTriggerData(at)` for what such a body parses to). No handshake.
 */
import { createHmac } from 'node:crypto';
import { acceptedInChildNode, madeSecret, type SenderFixture, type SentRequest } from './fixture';

// A signing secret as Linear shows it on the webhook's page: `lin_wh_` and random characters.
const signingSecret = madeSecret('lin_wh_made-up-signing-secret', 40);
const otherSecret = madeSecret('lin_wh_another-signing-secret', 40);

/** A fixed time for the fixture's own body; `signed` replaces it with the time of sending. */
const BODY_TIME_MS = 1767268800000;

const issueEvent = (timestampMs: number) => ({
  action: 'create',
  actor: { id: '2e6e2b0a-0000-4000-8000-000000000001', name: 'Ann', type: 'user' },
  createdAt: '2026-01-01T12:00:00.000Z',
  data: {
    id: '4b2c8f0e-0000-4000-8000-000000000002',
    identifier: 'ENG-42',
    number: 42,
    title: 'Ship it',
    priority: 2,
    stateId: '9c6c2b0a-0000-4000-8000-000000000003',
    teamId: '7a1d2b0a-0000-4000-8000-000000000004',
    createdAt: '2026-01-01T12:00:00.000Z',
    updatedAt: '2026-01-01T12:00:00.000Z',
  },
  url: 'https://linear.app/made-up/issue/ENG-42/ship-it',
  type: 'Issue',
  organizationId: '1f0d2b0a-0000-4000-8000-000000000005',
  webhookTimestamp: timestampMs,
  webhookId: '3e4d2b0a-0000-4000-8000-000000000006',
});

const body = JSON.stringify(issueEvent(BODY_TIME_MS));

/** What a delivery signed at `at` parses to. */
export const linearTriggerData = (at: Date) => issueEvent(at.getTime());

/** `body` with its `webhookTimestamp` set to `at` (the bytes are otherwise kept). */
export const withLinearTime = (body: string, at: Date) =>
  body.replace(/"webhookTimestamp":\d+/, `"webhookTimestamp":${at.getTime()}`);

/** The `Linear-Signature` of `body` under `secret`. */
export const linearSignature = (secret: string, body: string | Buffer) =>
  createHmac('sha256', secret).update(body).digest('hex');

function sign(secret: string, template: string, at: Date): SentRequest {
  const timed = withLinearTime(template, at);
  return {
    method: 'POST',
    query: '',
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Linear-Delivery': '5f8e2b0a-0000-4000-8000-000000000007',
      'Linear-Event': 'Issue',
      'Linear-Signature': linearSignature(secret, timed),
      'Linear-Timestamp': String(at.getTime()),
    },
    body: timed,
  };
}

/**
 * `@linear/sdk` is ES modules only, which jest's CommonJS runtime cannot load: its verify runs in a
 * child `node` (checking against the child's clock, as the library always does).
 */
const VERIFY_SCRIPT = `
import('@linear/sdk/webhooks').then(({ LinearWebhookClient }) => {
  const input = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
  new LinearWebhookClient(input.secret).verify(Buffer.from(input.body, 'base64'), input.signature);
});`;

export const linearSender: SenderFixture = {
  name: 'linear',
  verification: { scheme: 'linear', secret: signingSecret },
  body,
  triggerData: JSON.parse(body),
  triggerDataOf: (sent) => JSON.parse(String(sent.body)),
  signed: (body, _url, at) => sign(signingSecret, body, at),
  signedWrongly: (body, _url, at) => sign(otherSecret, body, at),
  toleranceSeconds: 60,
  sdkAccepts(sent) {
    acceptedInChildNode(VERIFY_SCRIPT, {
      secret: signingSecret,
      body: sent.body,
      signature: sent.headers['Linear-Signature'],
    });
  },
};
