/** Calendly: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const calendly: Sender = {
  label: 'Calendly',
  group: 'productivity',
  settings: [secret('Webhook signing key')],
  setup:
    'Create the webhook subscription (POST /webhook_subscriptions) with the URL and a signing_key; paste the ' +
    'same key here.',
  signature: {
    family: 'hmac',
    header: 'Calendly-Webhook-Signature',
    parts: { digest: 'v1', separator: ',' },
    encoding: 'hex',
    content: '{time}.{body}',
    time: { part: 't', unit: 's' },
  },
  checks: '`Calendly-Webhook-Signature: t=…,v1=<hex HMAC-SHA256 of "t.body">`, t within 3 minutes',
  deliveryId: null,
  dedup: "the body's digest",
  redelivery:
    '3xx, 4xx or 5xx: retried with exponential back-off for 24 hours; the webhook is then disabled if nothing ' +
    'got through',
  handshake: null,
  toleranceSeconds: 180,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({ event: 'invitee.created', payload: { email: 'ann@example.com', name: 'Ann' } }),
};
