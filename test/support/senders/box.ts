/**
 * Box (webhooks V2) as the tests play it. Box's library (`box-node-sdk`) computes signatures only
 * asynchronously, so deliveries are signed here by the algorithm its `WebhooksManager.validateMessage`
 * checks, and `sdkAccepts` runs that check: `box-signature-primary` and `box-signature-secondary` are each
 * the base64 HMAC-SHA256 of the body followed by the `box-delivery-timestamp` header (ISO 8601 with an
 * offset), under the app's primary and secondary signature keys taken as text; `box-signature-version: 1`
 * and `box-signature-algorithm: HmacSHA256` name the scheme. The library refuses a timestamp more than
 * 600 s old or in the future. Either key matching is enough (Box rotates one key at a time). No handshake.
 */
import { createHmac } from 'node:crypto';
import { WebhooksManager } from 'box-node-sdk/lib/managers/webhooks';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

// Signature keys as the Developer Console's Webhooks tab shows them: 32 characters.
const primaryKey = madeSecret('box-primary-signature-key', 32);
const secondaryKey = madeSecret('box-secondary-signature-key', 32);
const otherPrimary = madeSecret('box-other-primary-key', 32);
const otherSecondary = madeSecret('box-other-secondary-key', 32);

const event = {
  type: 'webhook_event',
  id: 'f5a4c1d8-0000-4000-8000-000000000001',
  created_at: '2026-01-01T04:00:00-08:00',
  trigger: 'FILE.UPLOADED',
  webhook: { id: '1234567890', type: 'webhook' },
  created_by: { type: 'user', id: '22222222', name: 'Ann Lee', login: 'ann@example.com' },
  source: { id: '333333333333', type: 'file', name: 'report.pdf', etag: '0', sequence_id: '0' },
};
const body = JSON.stringify(event);

/** `at` as Box writes `box-delivery-timestamp`: seconds, with an offset (UTC here). */
export const boxTimestamp = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, '+00:00');

/** One `box-signature-*` value for `body` sent at `timestamp` under `key`. */
export const boxSignature = (key: string, body: string | Buffer, timestamp: string) =>
  createHmac('sha256', key).update(body).update(timestamp).digest('base64');

function sign(primary: string, secondary: string, body: string, at: Date): SentRequest {
  const timestamp = boxTimestamp(at);
  return {
    method: 'POST',
    query: '',
    headers: {
      'content-type': 'application/json; charset=UTF-8',
      'box-delivery-id': '0f3c2a1e-0000-4000-8000-000000000002',
      'box-delivery-timestamp': timestamp,
      'box-signature-algorithm': 'HmacSHA256',
      'box-signature-primary': boxSignature(primary, body, timestamp),
      'box-signature-secondary': boxSignature(secondary, body, timestamp),
      'box-signature-version': '1',
    },
    body,
  };
}

export const boxSender: SenderFixture = {
  name: 'box',
  verification: { scheme: 'box', secret: primaryKey, secondarySecret: secondaryKey },
  body,
  triggerData: event,
  signed: (body, _url, at) => sign(primaryKey, secondaryKey, body, at),
  signedWrongly: (body, _url, at) => sign(otherPrimary, otherSecondary, body, at),
  toleranceSeconds: 600,
  async sdkAccepts(sent) {
    const valid = await WebhooksManager.validateMessage(String(sent.body), sent.headers, primaryKey, {
      secondaryKey,
    });
    if (!valid) throw new Error('box-node-sdk: validateMessage refused the delivery');
  },
};
