/**
 * Segment as the tests play it. Segment publishes no library that verifies what it sends: deliveries are
 * signed as its Webhooks destinations do (segmentio/action-destinations,
 * packages/destination-actions/src/destinations/webhook/index.ts; the classic Webhooks destination's
 * docs say the same): with a Shared Secret set, `X-Signature` is the hex HMAC-SHA1 of the JSON body,
 * keyed with the Shared Secret as text. No signed time, no handshake. The body's `messageId` is
 * Segment's id of the event, the same when Segment retries it (signed, as part of the body).
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

// The Shared Secret is whatever text the person types in the destination's settings.
const sharedSecret = madeSecret('segment-shared-secret', 32);
const otherSecret = madeSecret('segment-other-secret', 32);

const event = {
  anonymousId: '507f191e810c19729de860ea',
  context: { ip: '203.0.113.7', library: { name: 'analytics.js', version: '2.11.1' } },
  event: 'Order Completed',
  messageId: 'ajs-next-1767268800000-7e1a5d2b-4c3f-4d1e-9a8b-1f2e3d4c5b6a',
  properties: { orderId: '50314b8e9bcf000000000000', revenue: 29.99, currency: 'USD' },
  receivedAt: '2026-01-01T12:00:00.312Z',
  sentAt: '2026-01-01T12:00:00.204Z',
  timestamp: '2026-01-01T12:00:00.108Z',
  type: 'track',
  userId: '97980cfea0067',
  version: 2,
};
const body = JSON.stringify(event);

/** The `X-Signature` of `body` under `key`. */
export const segmentSignature = (key: string, body: string | Buffer) =>
  createHmac('sha1', key).update(body).digest('hex');

const sign = (key: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {
    'Content-Type': 'application/json',
    'User-Agent': 'Segment.io/1.0',
    'X-Signature': segmentSignature(key, body),
  },
  body,
});

export const segmentSender: SenderFixture = {
  name: 'segment',
  verification: { scheme: 'segment', secret: sharedSecret },
  body,
  triggerData: event,
  signed: (body) => sign(sharedSecret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
};
