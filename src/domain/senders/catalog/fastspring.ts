/** FastSpring: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const fastspring: Sender = {
  label: 'FastSpring',
  group: 'commerce',
  settings: [secret('HMAC SHA256 Secret')],
  setup:
    'FastSpring App → Developer Tools → Webhooks → Configuration → Add Webhook, then Add URL Endpoint: paste the ' +
    'URL, type an HMAC SHA256 Secret (the same here), pick the events, Save.',
  signature: { family: 'hmac', header: 'X-FS-Signature', encoding: 'base64', content: '{body}' },
  checks: '`X-FS-Signature: <base64 HMAC-SHA256 of the body>` under the HMAC SHA256 Secret as text',
  deliveryId: null,
  dedup:
    "the body's digest (a POST may carry several events in `events`, each with its own `id`, resent the same " +
    'on automatic retries)',
  redelivery:
    "automatic retries keep each event's `id` [unconfirmed: schedule]; a manual resend gives the event a new id",
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    events: [
      {
        id: 'made-up-event-id-0001',
        live: false,
        processed: false,
        type: 'order.completed',
        created: 1767268800123,
        data: { reference: 'FUR260101-1234-56789', currency: 'USD', total: 19.99 },
      },
    ],
  }),
};
