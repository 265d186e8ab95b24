/** WorkOS: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const workos: Sender = {
  label: 'WorkOS',
  group: 'identity',
  settings: [secret('Webhook secret')],
  setup:
    "WorkOS Dashboard → Webhooks → Create endpoint: paste the URL, pick the events. Copy the endpoint's " +
    'secret here.',
  signature: {
    family: 'hmac',
    header: 'WorkOS-Signature',
    parts: { digest: 'v1', separator: ',' },
    encoding: 'hex',
    content: '{time}.{body}',
    time: { part: 't', unit: 'ms' },
  },
  checks: '`WorkOS-Signature: t=<unix ms>, v1=<hex HMAC-SHA256 of "t.body">`, t within 3 minutes (as its SDK)',
  deliveryId: { json: 'id' },
  dedup: '`id` (`event_…`, signed)',
  redelivery:
    'retried with exponential back-off for up to 3 days in production (minutes elsewhere), with the same ' +
    'event `id`; also by hand from the Dashboard',
  handshake: null,
  toleranceSeconds: 180,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    id: 'event_01HMADEUPEVENT0000000000001',
    event: 'user.created',
    data: { object: 'user', id: 'user_01HMADEUPUSER00000000000001', email: 'ann@example.com' },
    created_at: '2026-01-01T12:00:00.000Z',
  }),
};
