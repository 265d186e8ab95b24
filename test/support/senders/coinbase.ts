/**
 * Coinbase as the tests play it: webhooks of the Coinbase Developer Platform (Coinbase Business
 * payment links and checkouts, onramp, transfers), which Coinbase sends through Hook0. Coinbase
 * publishes no Node library that verifies them: deliveries are signed as its "Verify Signatures" page
 * says, `X-Hook0-Signature: t=<unix s>,v0=<hex HMAC-SHA256 of "{t}.{body}">,h=<header names>,v1=<hex
 * HMAC-SHA256 of "{t}.{h}.{the named headers' values joined by '.'}.{body}">`, keyed with the
 * subscription's `secret` as text, refused when older than 5 minutes. Coinbase Commerce's older
 * `X-CC-Webhook-Signature` is not this sender (see the notes).
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

// The subscription's `metadata.secret`, given once when the subscription is created.
const secret = madeSecret('coinbase-subscription-secret', 36);
const otherSecret = madeSecret('coinbase-other-secret', 36);
const eventId = '0b2f6c1e-5d4a-4e3b-9c8d-7a6b5c4d3e2f';
const eventType = 'checkout.payment.success';
const signedHeaders = ['content-type', 'x-event-id', 'x-event-type'];

const event = {
  id: '69163c762331ed43dc64a6ef',
  url: 'https://payments.coinbase.com/payment-links/pl_01k9zdrbdeezj98vaqaxrfare0',
  amount: '100.00',
  currency: 'USDC',
  network: 'base',
  address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
  description: 'Payment for order #12345',
  eventType,
  metadata: { customerId: 'cust_abc123', orderId: '12345' },
  settlement: { totalAmount: '100.00', feeAmount: '1.25', netAmount: '98.75', currency: 'USDC' },
  status: 'COMPLETED',
  transactionHash: '0x3a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b',
  createdAt: '2026-01-01T11:59:49.329Z',
  updatedAt: '2026-01-01T12:00:00.097Z',
};
const body = JSON.stringify(event);

const hmacHex = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex');

/** The `X-Hook0-Signature` of `body` with `headers` (lower-case names) under `key` at `seconds`. */
export function coinbaseSignature(key: string, body: string, headers: Record<string, string>, seconds: number): string {
  const names = signedHeaders.join(' ');
  const values = signedHeaders.map((name) => headers[name] ?? '').join('.');
  const v0 = hmacHex(key, `${seconds}.${body}`);
  const v1 = hmacHex(key, `${seconds}.${names}.${values}.${body}`);
  return `t=${seconds},v0=${v0},h=${names},v1=${v1}`;
}

function sign(key: string, body: string, at: Date): SentRequest {
  const seconds = Math.floor(at.getTime() / 1000);
  const headers = { 'content-type': 'application/json', 'x-event-id': eventId, 'x-event-type': eventType };
  return {
    method: 'POST',
    query: '',
    headers: { ...headers, 'x-hook0-signature': coinbaseSignature(key, body, headers, seconds) },
    body,
  };
}

export const coinbaseSender: SenderFixture = {
  name: 'coinbase',
  verification: { scheme: 'coinbase', secret },
  body,
  triggerData: event,
  signed: (body, _url, at) => sign(secret, body, at),
  signedWrongly: (body, _url, at) => sign(otherSecret, body, at),
  // Coinbase's verification example refuses a signature older than 5 minutes (maxAgeMinutes = 5).
  toleranceSeconds: 300,
};
