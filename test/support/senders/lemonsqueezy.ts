/**
 * Lemon Squeezy as the tests play it. Lemon Squeezy's library (`@lemonsqueezy/lemonsqueezy.js`) has no
 * webhook check: deliveries are signed as its "Signing requests" guide describes, `X-Signature: <hex
 * HMAC-SHA256 of the body>`, keyed with the webhook's signing secret (typed by the person, 6 to 40
 * characters) as text. No signed time, no handshake. Lemon Squeezy counts a delivery as sent only when
 * the answer's status is 200; anything else is retried.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const signingSecret = madeSecret('lemonsqueezy-signing-secret', 40);
const otherSecret = madeSecret('lemonsqueezy-other-secret', 40);

const event = {
  meta: { event_name: 'order_created', custom_data: { robot: 'welcome' } },
  data: {
    type: 'orders',
    id: '1',
    attributes: {
      store_id: 1,
      identifier: '636f855c-1fb9-4c07-b75c-3a10afef010a',
      order_number: 1,
      user_name: 'Ann',
      user_email: 'ann@example.com',
      currency: 'USD',
      subtotal: 999,
      tax: 200,
      total: 1199,
      status: 'paid',
      test_mode: false,
      created_at: '2026-01-01T12:00:00.000000Z',
      updated_at: '2026-01-01T12:00:00.000000Z',
    },
    links: { self: 'https://api.lemonsqueezy.com/v1/orders/1' },
  },
};
const body = JSON.stringify(event);

/** The `X-Signature` of `body` under `key`. */
export const lemonSqueezySignature = (key: string, body: string | Buffer) =>
  createHmac('sha256', key).update(body).digest('hex');

const sign = (key: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {
    'Content-Type': 'application/json',
    'X-Event-Name': 'order_created',
    'X-Signature': lemonSqueezySignature(key, body),
  },
  body,
});

export const lemonsqueezySender: SenderFixture = {
  name: 'lemonsqueezy',
  verification: { scheme: 'lemonsqueezy', secret: signingSecret },
  body,
  triggerData: event,
  signed: (body) => sign(signingSecret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
};
