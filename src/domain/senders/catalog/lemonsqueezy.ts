/** Lemon Squeezy: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const lemonsqueezy: Sender = {
  label: 'Lemon Squeezy',
  group: 'payments',
  settings: [secret('Signing secret', { pattern: { source: '^[\\s\\S]{1,40}$', message: 'at most 40 characters' } })],
  setup:
    'Lemon Squeezy → Settings → Webhooks → +: paste the URL as Callback URL, type a Signing secret (paste the ' +
    'same here), tick the events, Save. Test and live mode webhooks are apart.',
  signature: { family: 'hmac', header: 'X-Signature', encoding: 'hex', content: '{body}' },
  checks: '`X-Signature: <hex HMAC-SHA256 of the body>` under the Signing secret as text',
  deliveryId: null,
  dedup: "the body's digest (deliveries carry no id of their own; `X-Event-Name` is kept)",
  redelivery:
    'anything but exactly 200 is retried up to 3 more times with exponential back-off, the same body; then ' +
    'it can be resent from the dashboard',
  keeps: ['x-event-name'],
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    meta: { event_name: 'order_created', custom_data: { robot: 'welcome' } },
    data: {
      type: 'orders',
      id: '1',
      attributes: { order_number: 1, user_email: 'ann@example.com', currency: 'USD', total: 1199, status: 'paid' },
    },
  }),
};
