/**
 * Customer.io reporting webhooks as the tests play them. Customer.io publishes no library that signs or
 * verifies; deliveries are signed by its documented algorithm (Journeys Reporting Webhooks API,
 * "Securely verifying requests"): `X-CIO-Signature: <hex HMAC-SHA256 of "v0:<X-CIO-Timestamp>:<body>">`
 * under the webhook signing key taken as text; `X-CIO-Timestamp` is unix seconds. The docs read here name
 * no window, so the receiver allows the usual 5 minutes. The body's `event_id` (signed) names the event.
 * No handshake.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { SenderFixture, SentRequest } from './fixture';

// A webhook signing key as the Reporting Webhooks page shows it: 64 hex characters.
const signingKey = randomBytes(32).toString('hex');
const otherKey = randomBytes(32).toString('hex');

const event = {
  data: {
    action_id: 42,
    campaign_id: 23,
    customer_id: 'ann-1',
    delivery_id: 'RPILAgABcRhIBqSp7kiPekGBIeVh',
    identifiers: { id: 'ann-1', email: 'ann@example.com', cio_id: 'd9c106000001' },
    recipient: 'ann@example.com',
    subject: 'Welcome!',
  },
  event_id: '01E4C4CT6YDC7Y5M7FE1GWWPQJ',
  metric: 'sent',
  object_type: 'email',
  timestamp: 1767268800,
};
const body = JSON.stringify(event);

/** The `X-CIO-Signature` of `body` sent at `seconds` under `key`. */
export const customerioSignature = (key: string, body: string | Buffer, seconds: number) =>
  createHmac('sha256', key).update(`v0:${seconds}:`).update(body).digest('hex');

function sign(key: string, body: string, at: Date): SentRequest {
  const seconds = Math.floor(at.getTime() / 1000);
  return {
    method: 'POST',
    query: '',
    headers: {
      'Content-Type': 'application/json',
      'X-CIO-Signature': customerioSignature(key, body, seconds),
      'X-CIO-Timestamp': String(seconds),
    },
    body,
  };
}

export const customerioSender: SenderFixture = {
  name: 'customerio',
  verification: { scheme: 'customerio', secret: signingKey },
  body,
  triggerData: event,
  signed: (body, _url, at) => sign(signingKey, body, at),
  signedWrongly: (body, _url, at) => sign(otherKey, body, at),
  toleranceSeconds: 300,
};
