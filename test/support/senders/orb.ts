/**
 * Orb as the tests play it. Orb's library (`orb-billing`, `client.webhooks.verifySignature` / `unwrap`)
 * only verifies, and is not installed here, so deliveries are signed by the algorithm it checks:
 * `X-Orb-Timestamp: <ISO 8601 UTC, no zone, e.g. 2024-03-27T15:42:29.551>` and
 * `X-Orb-Signature: v1=<hex HMAC-SHA256 of "v1:<X-Orb-Timestamp>:<body>">` (several space-separated
 * `v1=` values may come) under the endpoint's secret taken as UTF-8 text. The library refuses a time more
 * than 5 minutes old or ahead. The body's `id` (the WebhookEvent, signed) is Orb's idempotency key. No
 * handshake.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const webhookSecret = madeSecret('orb-webhook-secret', 43);
const otherSecret = madeSecret('orb-other-secret', 43);

const event = {
  id: 'o4mmewpfNNTnjfZc',
  created_at: '2026-01-01T12:00:00+00:00',
  type: 'customer.created',
  customer: { id: 'XimGiw3pnsgusvc3', external_customer_id: 'ann-1', name: 'Ann', email: 'ann@example.com' },
  properties: {},
};
const body = JSON.stringify(event);

/** Orb's timestamp header: UTC ISO 8601 with milliseconds and no zone designator. */
export const orbTimestamp = (at: Date) => at.toISOString().replace(/Z$/, '');

/** The `X-Orb-Signature` header's value for `body` under `secret` with the timestamp header `timestamp`. */
export const orbSignature = (secret: string, body: string | Buffer, timestamp: string) =>
  `v1=${createHmac('sha256', secret).update(`v1:${timestamp}:`).update(body).digest('hex')}`;

const sign = (secret: string, body: string, at: Date): SentRequest => {
  const timestamp = orbTimestamp(at);
  return {
    method: 'POST',
    query: '',
    headers: {
      'Content-Type': 'application/json',
      'X-Orb-Timestamp': timestamp,
      'X-Orb-Signature': orbSignature(secret, body, timestamp),
    },
    body,
  };
};

export const orbSender: SenderFixture = {
  name: 'orb',
  verification: { scheme: 'orb', secret: webhookSecret },
  body,
  triggerData: event,
  signed: (body, _url, at) => sign(webhookSecret, body, at),
  signedWrongly: (body, _url, at) => sign(otherSecret, body, at),
  toleranceSeconds: 300,
};
