/** Coinbase (Developer Platform webhooks): its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, secret, type Sender } from './sender';

export const coinbase: Sender = {
  label: 'Coinbase (Developer Platform, Coinbase Business)',
  group: 'payments',
  settings: [secret('Subscription secret')],
  setup:
    'Create a webhook subscription in the CDP Portal → Webhooks, or POST /platform/v2/data/webhooks/subscriptions ' +
    'with target.url = the URL and the event types (e.g. checkout.payment.success); paste the secret it gives ' +
    'once (metadata.secret) here.',
  signature: {
    family: 'hmac',
    header: 'X-Hook0-Signature',
    parts: { digest: 'v0', separator: ',' },
    encoding: 'hex',
    content: '{time}.{body}',
    time: { part: 't', unit: 's' },
  },
  checks:
    '`X-Hook0-Signature: t=…,v0=<hex HMAC-SHA256 of "t.body">,h=…,v1=…`: its v0 is checked (v1 adds the named ' +
    "headers and is not read), t within 5 minutes (Coinbase's example)",
  deliveryId: null,
  dedup: "the body's digest (its `X-Event-Id` is not covered by v0: kept, not trusted)",
  redelivery: 'failed deliveries are retried with growing waits, the same body [unconfirmed: schedule]',
  keeps: ['x-event-id', 'x-event-type'],
  handshake: null,
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    id: 'made-up-payment-link-id',
    eventType: 'checkout.payment.success',
    amount: '100.00',
    currency: 'USDC',
    network: 'base',
    status: 'COMPLETED',
    metadata: { orderId: '12345' },
  }),
};
