/** Customer.io: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, secret, type Sender } from './sender';

export const customerio: Sender = {
  label: 'Customer.io (reporting webhooks)',
  group: 'marketing',
  settings: [secret('Webhook signing key')],
  setup:
    'Data & Integrations → Integrations → Reporting Webhooks → Add Reporting Webhook: paste the URL, choose ' +
    "the events, Save and Enable. Copy the signing key from that page here (a campaign's webhook action is not " +
    'signed with it).',
  signature: {
    family: 'hmac',
    header: 'X-CIO-Signature',
    encoding: 'hex',
    content: 'v0:{time}:{body}',
    time: { header: 'X-CIO-Timestamp', unit: 's' },
  },
  checks:
    '`X-CIO-Signature: <hex HMAC-SHA256 of "v0:timestamp:body">`, `X-CIO-Timestamp` (unix seconds) within ' +
    '5 minutes: Customer.io names no window',
  deliveryId: { json: 'event_id' },
  dedup: '`event_id` (signed)',
  redelivery:
    'retried on a timeout (4 seconds) or an answer other than 2xx with exponential back-off for up to 7 days, ' +
    'later events held until one succeeds',
  handshake: null,
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    event_id: '01E4C4CT6YDC7Y5M7FE1GWWPQJ',
    metric: 'sent',
    object_type: 'email',
    timestamp: 1767268800,
    data: { customer_id: 'ann-1', recipient: 'ann@example.com', subject: 'Welcome!' },
  }),
};
