/** Persona: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, secret, type Sender } from './sender';

export const persona: Sender = {
  label: 'Persona',
  group: 'identity',
  settings: [secret('Webhook secret')],
  setup:
    'Dashboard → Integration → Webhooks → Add webhook: paste the URL, enable the events, pick the API version. ' +
    "Copy the webhook's secret here.",
  signature: {
    family: 'hmac',
    header: 'Persona-Signature',
    parts: { digest: 'v1', separator: ',' },
    encoding: 'hex',
    content: '{time}.{body}',
    time: { part: 't', unit: 's' },
  },
  checks:
    '`Persona-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "t.body">` (two space-separated sets while the ' +
    'secret is rotated: any may match), t within 5 minutes (Persona publishes no window)',
  deliveryId: { json: 'data.id' },
  dedup: "the event's `data.id` (`evt_…`, signed): Persona may send an event more than once",
  redelivery:
    'retried on a failure, not in order; its attempts are counted in `Persona-Webhook-Attempts-Made` and ' +
    '`-Attempts-Left` [unconfirmed: schedule]',
  keeps: ['persona-webhook-attempts-made', 'persona-webhook-first-attempted-at'],
  handshake: null,
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    data: {
      type: 'event',
      id: 'evt_XGuYWp7WuDzNxie5z16s7sGJ',
      attributes: {
        name: 'inquiry.approved',
        payload: { data: { type: 'inquiry', id: 'inq_2CVZ4HyVg7qaboXz2PUHknAn', attributes: { status: 'approved' } } },
        'created-at': '2026-01-01T12:00:00.000Z',
      },
    },
  }),
};
