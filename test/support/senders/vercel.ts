/**
 * Vercel as the tests play it. Vercel publishes no library that signs or verifies webhooks (`@vercel/sdk`
 * only calls its API): deliveries are signed as Vercel's webhooks documentation describes,
 * `x-vercel-signature: <hex HMAC-SHA1 of the body>`, keyed with the webhook's secret (shown once when an
 * account webhook is created; an integration's webhooks use the integration's Client Secret) as text.
 * No signed time, no handshake. The body's `id` is Vercel's id of the event.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

// The secret Vercel shows once after a webhook is created (24 random characters).
const secret = madeSecret('vercel-webhook-secret', 24);
const otherSecret = madeSecret('vercel-other-secret', 24);

const event = {
  id: 'HlFQ3GRrYgK8tAKn0dNwPGmf',
  type: 'deployment.succeeded',
  createdAt: 1767268800000,
  region: 'iad1',
  payload: {
    team: { id: 'team_1a2b3c4d5e6f7g8h9i0j' },
    user: { id: 'Tk1a2b3c4d5e6f7g8h9i0j' },
    deployment: {
      id: 'dpl_2Gd8f3f1a4a3c1e2b3c4d5e6f7g8',
      name: 'robot-site',
      url: 'robot-site-abc123.vercel.app',
      meta: {},
    },
    links: {
      deployment: 'https://vercel.com/made-up/robot-site/2Gd8f3f1a4a3c1e2b3c4d5e6f7g8',
      project: 'https://vercel.com/made-up/robot-site',
    },
    target: 'production',
    project: { id: 'prj_1a2b3c4d5e6f7g8h9i0j' },
  },
};
const body = JSON.stringify(event);

/** The `x-vercel-signature` of `body` under `key`. */
export const vercelSignature = (key: string, body: string | Buffer) =>
  createHmac('sha1', key).update(body).digest('hex');

const sign = (key: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json', 'x-vercel-signature': vercelSignature(key, body) },
  body,
});

export const vercelSender: SenderFixture = {
  name: 'vercel',
  verification: { scheme: 'vercel', secret },
  body,
  triggerData: event,
  signed: (body) => sign(secret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
};
