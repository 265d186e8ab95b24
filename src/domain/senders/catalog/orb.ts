/** Orb: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, secret, type Sender } from './sender';

export const orb: Sender = {
  label: 'Orb',
  group: 'payments',
  settings: [secret('Webhook secret')],
  setup:
    "Orb → Developers → Webhooks → Add endpoint: paste the URL. Copy the endpoint's signing secret here, then " +
    '"Send test event" (a normal signed delivery).',
  signature: {
    family: 'hmac',
    header: 'X-Orb-Signature',
    parts: { digest: 'v1', separator: ',' },
    encoding: 'hex',
    content: 'v1:{time}:{body}',
    time: { header: 'X-Orb-Timestamp', unit: 'iso' },
  },
  checks:
    '`X-Orb-Signature: v1=<hex HMAC-SHA256 of "v1:{X-Orb-Timestamp}:{body}">` (several space-separated `v1=` ' +
    'may come: any may match), `X-Orb-Timestamp` (ISO 8601, UTC without a zone) within 5 minutes, as its library',
  deliveryId: { json: 'id' },
  dedup: "the event's `id` (signed; Orb's idempotency key)",
  redelivery: 'at least once: retried on a failure, resendable from the dashboard [unconfirmed: schedule]',
  handshake: null,
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    id: 'o4mmewpfNNTnjfZc',
    created_at: '2026-01-01T12:00:00+00:00',
    type: 'customer.created',
    customer: { id: 'XimGiw3pnsgusvc3', external_customer_id: 'ann-1', name: 'Ann', email: 'ann@example.com' },
    properties: {},
  }),
};
