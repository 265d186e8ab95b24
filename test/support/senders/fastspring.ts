/**
 * FastSpring as the tests play it. FastSpring publishes no library that signs or verifies: deliveries
 * are signed as its "Message Security" page says, `X-FS-Signature: <base64 HMAC-SHA256 of the
 * payload>`, keyed with the text typed in the webhook's "HMAC SHA256 Secret" field. No signed time, no
 * handshake. A POST carries an `events` array; each event's `id` is FastSpring's id of that event, the
 * same on its automatic retries (a manual resend gets a new id).
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const hmacSecret = madeSecret('fastspring-hmac-secret', 32);
const otherSecret = madeSecret('fastspring-other-secret', 32);

const event = {
  events: [
    {
      id: 'H3cFwYRfRJqQvxQ2wYXzZg',
      live: false,
      processed: false,
      type: 'order.completed',
      created: 1767268800123,
      data: {
        order: 'nvPfGFZzQ7-_DS0lH3bm4w',
        id: 'nvPfGFZzQ7-_DS0lH3bm4w',
        reference: 'FUR260101-1234-56789',
        live: false,
        currency: 'USD',
        total: 19.99,
        customer: { first: 'Ann', last: 'Lee', email: 'ann@example.com' },
        items: [{ product: 'pro-plan', quantity: 1, subtotal: 19.99 }],
      },
    },
  ],
};
const body = JSON.stringify(event);

/** The `X-FS-Signature` of `body` under `key`. */
export const fastSpringSignature = (key: string, body: string | Buffer) =>
  createHmac('sha256', key).update(body).digest('base64');

const sign = (key: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json', 'X-FS-Signature': fastSpringSignature(key, body) },
  body,
});

export const fastspringSender: SenderFixture = {
  name: 'fastspring',
  verification: { scheme: 'fastspring', secret: hmacSecret },
  body,
  triggerData: event,
  signed: (body) => sign(hmacSecret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
};
