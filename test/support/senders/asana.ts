/**
 * Asana as the tests play it: when the webhook is made, Asana POSTs (no body) with `X-Hook-Secret`
 * and takes the webhook only if the answer is `200` or `204` with the same `X-Hook-Secret`; its
 * events then carry `X-Hook-Signature: <hex HMAC-SHA256 of the body>` under that secret. The app
 * has no secret until the handshake: `signed` uses the one the handshake gives. No library: Asana's
 * SDKs call its API and do not sign or check webhooks; the algorithm is its published one.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type Answer, type SenderFixture, type SentRequest } from './fixture';

/** The secret Asana gives in the handshake (its own are 64 hex digits; any visible ASCII is echoed). */
export const asanaHookSecret = madeSecret('asana-hook-secret', 64);
const otherSecret = madeSecret('asana-other-secret', 64);

const body = JSON.stringify({
  events: [
    {
      user: { gid: '1201', resource_type: 'user' },
      created_at: '2026-01-01T12:00:00.000Z',
      action: 'changed',
      resource: { gid: '1202', resource_type: 'task', resource_subtype: 'default_task' },
      parent: null,
      change: { field: 'name', action: 'changed' },
    },
  ],
});

export const asanaSignature = (secret: string, body: string | Buffer) =>
  createHmac('sha256', secret).update(body).digest('hex');

const sign = (secret: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json', 'X-Hook-Signature': asanaSignature(secret, body) },
  body,
});

/** Asana's handshake, giving `secret`. */
export const asanaHandshake = (secret = asanaHookSecret): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'X-Hook-Secret': secret },
  body: '',
});

export const asanaSender: SenderFixture = {
  name: 'asana',
  verification: { scheme: 'asana' },
  body,
  triggerData: JSON.parse(body),
  signed: (body) => sign(asanaHookSecret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
  handshake: {
    request: () => asanaHandshake(),
    accepts(answer: Answer) {
      if (answer.status !== 200 && answer.status !== 204) {
        throw new Error(`Asana takes only 200 or 204, got ${answer.status}`);
      }
      if (answer.headers['x-hook-secret'] !== asanaHookSecret)
        throw new Error('the answer does not echo X-Hook-Secret');
    },
  },
};
