/** Commerce Layer: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const commercelayer: Sender = {
  label: 'Commerce Layer',
  group: 'commerce',
  settings: [secret('Shared secret')],
  setup:
    'Dashboard → Settings → Webhooks → New webhook: pick the topic, paste the URL as Callback URL, save; copy the ' +
    "webhook's Shared secret here (or POST /api/webhooks with callback_url and read shared_secret).",
  signature: { family: 'hmac', header: 'X-CommerceLayer-Signature', encoding: 'base64', content: '{body}' },
  checks: "`X-CommerceLayer-Signature: <base64 HMAC-SHA256 of the body>` under the webhook's shared secret as text",
  deliveryId: null,
  dedup: "the body's digest (the body is the resource as the API returns it; no event id)",
  redelivery:
    'an answer other than 2xx within 5 seconds is retried up to 10 times [unconfirmed: spacing]; after 30 ' +
    'failures in a row the webhook stops until it is reset',
  keeps: ['x-commercelayer-topic'],
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    data: {
      id: 'wBXVhKzrnq',
      type: 'orders',
      attributes: { number: 2485110, status: 'placed', currency_code: 'EUR', customer_email: 'ann@example.com' },
      meta: { mode: 'test' },
    },
  }),
};
