/** Shopify: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const shopify: Sender = {
  label: 'Shopify',
  group: 'commerce',
  settings: [secret('Client secret (or the webhook signing key)')],
  setup:
    'Settings → Notifications → Webhooks → Create webhook (JSON): paste the URL. ' +
    'The signing key is shown under the list; for an app, its client secret.',
  signature: { family: 'hmac', header: 'X-Shopify-Hmac-Sha256', encoding: 'base64', content: '{body}' },
  checks: '`X-Shopify-Hmac-Sha256: <base64 HMAC-SHA256 of the body>`',
  deliveryId: null,
  keeps: ['x-shopify-webhook-id', 'x-shopify-topic'],
  dedup: "the body's digest (`X-Shopify-Webhook-Id` is kept, not signed)",
  redelivery: 'retried 8 times over 4 hours with exponential back-off, each time with the body as first sent',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({ id: 820982911946154500, email: 'ann@example.com', total_price: '19.99' }),
};
