/** Recurly: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, secret, type Sender } from './sender';

export const recurly: Sender = {
  label: 'Recurly',
  group: 'payments',
  settings: [secret('Secret key')],
  setup:
    'Integrations → Webhooks → New endpoint: paste the URL, choose the JSON format and the notifications. ' +
    "Copy the endpoint's secret key from the Webhook Endpoints page here (leave its HTTP Basic fields empty).",
  signature: {
    family: 'hmac',
    header: 'recurly-signature',
    parts: { positional: ',' },
    encoding: 'hex',
    content: '{time}.{body}',
    time: { first: true, unit: 'ms' },
  },
  checks:
    '`recurly-signature: <unix ms>,<hex HMAC-SHA256 of "ms.body">[,<hex>…]` (one digest per key while one is ' +
    'regenerated: any may match), the time within 5 minutes either way, as its Ruby client; only JSON ' +
    'notifications are signed',
  deliveryId: { json: 'id' },
  dedup: "the notification's `id` (signed)",
  redelivery:
    'a failed notification (not 2xx within 5 seconds) is retried up to 10 times with growing waits, in the order ' +
    'made; it can be resent by hand [unconfirmed: whether a retry keeps its id]',
  handshake: null,
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    id: 'tc2kfmlkq5ab',
    object_type: 'account',
    site_id: 'r3nwa6zq4n6k',
    event_type: 'created',
    event_time: '2026-01-01T12:00:00Z',
    account_code: 'ann-1',
  }),
};
