/**
 * Airwallex as the tests play it. Airwallex publishes no Node library that signs or verifies; deliveries
 * are signed by its documented algorithm ("Listen for webhook events", "Check webhook signatures" and its
 * code examples): `x-timestamp: <unix ms>` and `x-signature: <hex HMAC-SHA256 of "<x-timestamp><body>">`
 * (no separator) under the webhook's secret taken as text. Airwallex names no window: the receiver's 5
 * minutes apply.
 * The event's `id` (in the signed body) is stable across retries. No handshake.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const webhookSecret = 'whsec_' + madeSecret('airwallex-webhook-secret', 32);
const otherSecret = 'whsec_' + madeSecret('airwallex-other-secret', 32);

const event = {
  id: 'evt_hkdmr6rzmgtcg7mv2rz_6oyvqm',
  name: 'payment_intent.succeeded',
  account_id: 'acct_Zq9ob4hLN5-6EV0xlGzFvQ',
  data: {
    object: {
      id: 'int_hkdmr6rzmgtcg7mv2rz',
      amount: 100,
      currency: 'USD',
      merchant_order_id: 'order-1',
      status: 'SUCCEEDED',
      created_at: '2026-01-01T11:59:00+0000',
    },
  },
  created_at: '2026-01-01T12:00:00+0000',
  version: '2024-09-27',
};
const body = JSON.stringify(event);

/** The `x-signature` header's value for `body` sent at `ms` under `secret`. */
export const airwallexSignature = (secret: string, body: string | Buffer, ms: number) =>
  createHmac('sha256', secret).update(String(ms)).update(body).digest('hex');

const sign = (secret: string, body: string, at: Date): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {
    'Content-Type': 'application/json',
    'x-timestamp': String(at.getTime()),
    'x-signature': airwallexSignature(secret, body, at.getTime()),
  },
  body,
});

export const airwallexSender: SenderFixture = {
  name: 'airwallex',
  verification: { scheme: 'airwallex', secret: webhookSecret },
  body,
  triggerData: event,
  signed: (body, _url, at) => sign(webhookSecret, body, at),
  signedWrongly: (body, _url, at) => sign(otherSecret, body, at),
  toleranceSeconds: 300,
};
