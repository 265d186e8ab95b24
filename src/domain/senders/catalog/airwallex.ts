/** Airwallex: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, secret, type Sender } from './sender';

export const airwallex: Sender = {
  label: 'Airwallex',
  group: 'payments',
  settings: [secret('Webhook secret')],
  setup:
    'Airwallex web app → Settings → Developer → Webhooks → New webhook: paste the URL as Notification URL, ' +
    "choose the API version and events. Copy the webhook's secret from its page here.",
  signature: {
    family: 'hmac',
    header: 'x-signature',
    encoding: 'hex',
    content: '{time}{body}',
    time: { header: 'x-timestamp', unit: 'ms' },
  },
  checks:
    '`x-signature: <hex HMAC-SHA256 of "x-timestamp" then the body>` (nothing between), `x-timestamp` (unix ms) ' +
    'within 5 minutes (Airwallex publishes no window)',
  deliveryId: { json: 'id' },
  dedup: "the event's `id` (signed; stable across retries)",
  redelivery:
    'retried with exponential back-off for about 3 days on an answer other than 200 or a timeout; can be resent ' +
    'by hand',
  handshake: null,
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    id: 'evt_hkdmr6rzmgtcg7mv2rz_6oyvqm',
    name: 'payment_intent.succeeded',
    account_id: 'acct_Zq9ob4hLN5-6EV0xlGzFvQ',
    data: { object: { id: 'int_hkdmr6rzmgtcg7mv2rz', amount: 100, currency: 'USD', status: 'SUCCEEDED' } },
    created_at: '2026-01-01T12:00:00+0000',
    version: '2024-09-27',
  }),
};
