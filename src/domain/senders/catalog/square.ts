/** Square: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const square: Sender = {
  label: 'Square',
  group: 'payments',
  settings: [secret('Signature key')],
  setup: 'developer.squareup.com → your app → Webhooks → Add subscription: paste the URL. Copy its Signature key here.',
  signature: { family: 'hmac', header: 'x-square-hmacsha256-signature', encoding: 'base64', content: '{url}{body}' },
  checks: '`x-square-hmacsha256-signature`: base64 HMAC-SHA256 of the public URL + body',
  deliveryId: { json: 'event_id' },
  dedup: '`event_id` (signed)',
  redelivery:
    'no 2xx within 10 seconds: retried 1, 2, 4 … 32 minutes apart, then hourly, for 72 hours, with the same ' +
    '`event_id`',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({ merchant_id: 'M1', type: 'payment.created', event_id: 'e1', data: { type: 'payment' } }),
};
