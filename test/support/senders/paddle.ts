/**
 * Paddle as the tests play it. Paddle's SDK (`@paddle/paddle-node-sdk`) only verifies, so
 * deliveries are signed by its documented algorithm, `Paddle-Signature: ts=<unix s>;h1=<hex
 * HMAC-SHA256 of "<ts>:<body>">` under the notification destination's secret key, and the unit
 * test proves them with the SDK's `webhooks.isSignatureValid` and `unmarshal`.
 */
import { createHmac } from 'node:crypto';
import { SENDERS } from '../../../src/domain/senders/catalog';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

// A notification destination's secret key has this shape: pdl_ntfset_<id>_<32 characters>.
const secretKey = madeSecret('pdl_ntfset_01testdestination_', 60);
const otherKey = madeSecret('pdl_ntfset_01otherdestination_', 60);

const body = JSON.stringify({
  event_id: 'evt_01testevent',
  event_type: 'customer.created',
  occurred_at: '2026-01-01T12:00:00.000000Z',
  notification_id: 'ntf_01testnotification',
  data: { id: 'ctm_01testcustomer', name: 'Ann', email: 'ann@example.com', status: 'active' },
});

/** The `h1` of `body` signed with `key` at `seconds`. */
export const paddleDigest = (key: string, body: string | Buffer, seconds: number) =>
  createHmac('sha256', key).update(`${seconds}:`).update(body).digest('hex');

/** The header's value for `body` signed with each of `keys` (a rotation gives two) at `seconds`. */
export const paddleSignature = (keys: string[], body: string | Buffer, seconds: number) =>
  [`ts=${seconds}`, ...keys.map((key) => `h1=${paddleDigest(key, body, seconds)}`)].join(';');

function sign(key: string, body: string, at: Date): SentRequest {
  const seconds = Math.floor(at.getTime() / 1000);
  return {
    method: 'POST',
    query: '',
    headers: { 'Content-Type': 'application/json', 'Paddle-Signature': paddleSignature([key], body, seconds) },
    body,
  };
}

export const paddleSender: SenderFixture = {
  name: 'paddle',
  verification: { scheme: 'paddle', secret: secretKey },
  body,
  triggerData: JSON.parse(body),
  signed: (body, _url, at) => sign(secretKey, body, at),
  signedWrongly: (body, _url, at) => sign(otherKey, body, at),
  toleranceSeconds: SENDERS.paddle.toleranceSeconds,
};
