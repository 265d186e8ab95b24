/**
 * Paystack as the tests play it. Paystack publishes no library that verifies its webhooks: deliveries
 * are signed as its webhook guide (and its own snippet, PaystackOSS/doc-code-snippets,
 * src/doc/payments/webhooks/verifying-transaction) describes, `x-paystack-signature: <hex HMAC-SHA512 of
 * the body>`, keyed with the integration's secret API key (`sk_live_…` / `sk_test_…`, Settings → API Keys
 * & Webhooks) as text. No signed time, no handshake.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

// A secret key as the dashboard shows it: sk_test_ and 40 hex characters.
const secretKey = madeSecret('sk_test_made-up-secret-key', 48);
const otherKey = madeSecret('sk_test_another-secret-key', 48);

const event = {
  event: 'charge.success',
  data: {
    id: 302961,
    domain: 'live',
    status: 'success',
    reference: 'qTPrJoy9Bx',
    amount: 10000,
    currency: 'NGN',
    channel: 'card',
    paid_at: '2026-01-01T12:00:00.000Z',
    created_at: '2026-01-01T11:59:50.000Z',
    customer: { id: 68324, customer_code: 'CUS_qo38as2hpsgk2r0', email: 'ann@example.com' },
  },
};
const body = JSON.stringify(event);

/** The `x-paystack-signature` of `body` under `key`. */
export const paystackSignature = (key: string, body: string | Buffer) =>
  createHmac('sha512', key).update(body).digest('hex');

const sign = (key: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json', 'x-paystack-signature': paystackSignature(key, body) },
  body,
});

export const paystackSender: SenderFixture = {
  name: 'paystack',
  verification: { scheme: 'paystack', secret: secretKey },
  body,
  triggerData: event,
  signed: (body) => sign(secretKey, body),
  signedWrongly: (body) => sign(otherKey, body),
  toleranceSeconds: null,
};
