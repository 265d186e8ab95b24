/**
 * Recurly as the tests play it. Recurly's Node client publishes no verifier (its Ruby, Go, PHP, Python,
 * Java and .NET clients do), so deliveries are signed here by the algorithm its Ruby client's
 * `Recurly::Webhooks.verify_signature` checks and its "Signature verification" page describes:
 * `recurly-signature: <unix ms>,<hex HMAC-SHA256 of "<ms>.<body>">[,<hex>…]` under the endpoint's secret
 * key taken as text; during a key rotation (24 h) one hex digest per valid key follows the time. The Ruby
 * client refuses a time more than 5 minutes off either way. Only JSON notifications are signed (XML ones
 * are not). The notification's `id` (in the signed body) names it. No handshake.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const secretKey = madeSecret('recurly-webhook-key', 32);
const otherKey = madeSecret('recurly-other-key', 32);

const notification = {
  id: 'tc2kfmlkq5ab',
  object_type: 'account',
  site_id: 'r3nwa6zq4n6k',
  event_type: 'created',
  event_time: '2026-01-01T12:00:00Z',
  account_code: 'ann-1',
};
const body = JSON.stringify(notification);

/** One hex digest of `body` sent at `ms` under `key`. */
export const recurlyDigest = (key: string, body: string | Buffer, ms: number) =>
  createHmac('sha256', key).update(`${ms}.`).update(body).digest('hex');

/** The `recurly-signature` header's value: the time, then one digest per key. */
export const recurlySignature = (keys: string[], body: string | Buffer, ms: number) =>
  [String(ms), ...keys.map((key) => recurlyDigest(key, body, ms))].join(',');

const sign = (keys: string[], body: string, at: Date): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json', 'recurly-signature': recurlySignature(keys, body, at.getTime()) },
  body,
});

export const recurlySender: SenderFixture = {
  name: 'recurly',
  verification: { scheme: 'recurly', secret: secretKey },
  body,
  triggerData: notification,
  signed: (body, _url, at) => sign([secretKey], body, at),
  signedWrongly: (body, _url, at) => sign([otherKey], body, at),
  toleranceSeconds: 300,
};

/** During a key rotation: the header carries the new key's digest and the old one's. */
export const recurlyRotatingSender: SenderFixture = {
  ...recurlySender,
  variant: 'rotating key (two digests)',
  signed: (body, _url, at) => sign([otherKey, secretKey], body, at),
  signedWrongly: (body, _url, at) => sign([otherKey, madeSecret('recurly-third-key', 32)], body, at),
};
