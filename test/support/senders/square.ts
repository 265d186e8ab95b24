/**
 * Square as the tests play it. Square's SDK (`square`) only verifies
 * (`WebhooksHelper.verifySignature`), so deliveries are signed by its documented algorithm,
 * `x-square-hmacsha256-signature: <base64 HMAC-SHA256 of notificationUrl + body>` under the
 * subscription's signature key, and the unit test proves them with the SDK.
 */
import { createHmac } from 'node:crypto';
import { SENDERS } from '../../../src/domain/senders/catalog';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

// A signature key is 22 URL-safe base64 characters.
const signatureKey = madeSecret('square-signature-key', 22);
const otherKey = madeSecret('square-other-key', 22);

const body = JSON.stringify({
  merchant_id: 'MLTEST00000001',
  type: 'payment.created',
  event_id: 'e1b2c3d4-0000-4000-8000-000000000001',
  created_at: '2026-01-01T12:00:00.000Z',
  data: { type: 'payment', id: 'PAYMENT1', object: { payment: { id: 'PAYMENT1', status: 'APPROVED' } } },
});

/** The signature of `body` sent to `notificationUrl`, signed with `key`. */
export const squareSignature = (key: string, notificationUrl: string, body: string | Buffer) =>
  createHmac('sha256', key).update(notificationUrl).update(body).digest('base64');

function sign(key: string, body: string, url: string): SentRequest {
  return {
    method: 'POST',
    query: '',
    headers: { 'Content-Type': 'application/json', 'x-square-hmacsha256-signature': squareSignature(key, url, body) },
    body,
  };
}

export const squareSender: SenderFixture = {
  name: 'square',
  verification: { scheme: 'square', secret: signatureKey },
  body,
  triggerData: JSON.parse(body),
  signed: (body, url) => sign(signatureKey, body, url),
  signedWrongly: (body, url) => sign(otherKey, body, url),
  toleranceSeconds: SENDERS.square.toleranceSeconds,
};
