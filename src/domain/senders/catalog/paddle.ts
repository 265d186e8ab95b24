/** Paddle: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const paddle: Sender = {
  label: 'Paddle',
  group: 'payments',
  settings: [secret('Secret key (pdl_ntfset_…)')],
  setup: 'Paddle → Developer Tools → Notifications → New destination: paste the URL. Copy its secret key here.',
  signature: {
    family: 'hmac',
    header: 'Paddle-Signature',
    parts: { digest: 'h1', separator: ';' },
    encoding: 'hex',
    content: '{time}:{body}',
    time: { part: 'ts', unit: 's' },
  },
  checks: '`Paddle-Signature: ts=…;h1=<hex HMAC-SHA256 of "ts:body">`, ts within 5 seconds (as its SDK)',
  deliveryId: { json: 'notification_id' },
  dedup: '`notification_id` (signed)',
  redelivery:
    'live: retried up to 60 times over 3 days with exponential back-off [unconfirmed: sandbox]; the API can ' +
    'replay one',
  handshake: null,
  toleranceSeconds: 5,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({ event_id: 'evt_1', event_type: 'transaction.completed', notification_id: 'ntf_1', data: {} }),
};
