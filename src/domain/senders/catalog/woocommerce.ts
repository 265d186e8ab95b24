/** WooCommerce: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const woocommerce: Sender = {
  label: 'WooCommerce',
  group: 'commerce',
  settings: [secret('Secret')],
  setup:
    'WooCommerce → Settings → Advanced → Webhooks → Add webhook: paste the URL as Delivery URL, choose the ' +
    'Topic and API version v3. Copy its Secret (or set your own) here; save with Status Active.',
  signature: { family: 'hmac', header: 'X-WC-Webhook-Signature', encoding: 'base64', content: '{body}' },
  checks:
    '`X-WC-Webhook-Signature: <base64 HMAC-SHA256 of the body>`; the unsigned ping of a new webhook ' +
    '(form `webhook_id=<n>`) is answered `200`, with no run',
  deliveryId: null,
  dedup: "the body's digest (`X-WC-Webhook-Delivery-ID` is new on every attempt and not signed; it is kept)",
  redelivery:
    'no automatic retry: each delivery is one attempt; after more than 5 failures in a row the webhook is ' +
    'set Disabled',
  keeps: [
    'x-wc-webhook-source',
    'x-wc-webhook-topic',
    'x-wc-webhook-resource',
    'x-wc-webhook-event',
    'x-wc-webhook-id',
    'x-wc-webhook-delivery-id',
  ],
  handshake: {
    kind: 'form-ping',
    field: 'webhook_id',
    value: '^\\d{1,20}$',
    method: 'POST',
    request: 'unsigned form `webhook_id=<id>` when the webhook is first saved as active',
    answer: '`200` (WooCommerce activates the webhook only on exactly 200), no run',
  },
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    id: 727,
    status: 'processing',
    currency: 'USD',
    total: '29.35',
    billing: { first_name: 'Ann', last_name: 'Lee', email: 'ann@example.com' },
    line_items: [{ id: 315, name: 'Woo Single #1', product_id: 93, quantity: 2, total: '6.00' }],
  }),
};
