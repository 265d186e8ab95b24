/** Polar: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, secret, type Sender } from './sender';

export const polar: Sender = {
  label: 'Polar',
  group: 'payments',
  settings: [
    secret('Secret (polar_whs_…)', {
      pattern: { source: '^(polar_whs_|whsec_)\\S+$', message: "Polar's webhook secret: polar_whs_… (or whsec_…)" },
    }),
  ],
  setup:
    'Polar → Settings → Webhooks → Add Endpoint: paste the URL, format Raw, pick the events. Copy its secret ' +
    'here, whole.',
  signature: { family: 'standard-webhooks', key: 'text' },
  checks:
    'Standard Webhooks: `webhook-signature` over `id.timestamp.body`, HMAC-SHA256 keyed with the secret as ' +
    "its text (as Polar's SDK), the timestamp within 5 minutes",
  deliveryId: 'own',
  dedup: '`webhook-id` (signed)',
  redelivery: 'retried with back-off, with the same `webhook-id` [unconfirmed]',
  handshake: null,
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    type: 'customer.created',
    timestamp: '2026-01-01T12:00:00.000Z',
    data: { id: 'customer_1', email: 'ann@example.com', name: 'Ann Lee' },
  }),
};
