/** Xero: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const xero: Sender = {
  label: 'Xero',
  group: 'payments',
  settings: [secret('Webhooks key')],
  setup:
    'developer.xero.com → My Apps → your app → Webhooks: choose the events, paste the URL as Delivery URL and ' +
    "Save. Copy the Webhooks key here, then press Send 'Intent To Receive'.",
  signature: { family: 'hmac', header: 'x-xero-signature', encoding: 'base64', content: '{body}' },
  checks:
    '`x-xero-signature: <base64 HMAC-SHA256 of the body>` under the Webhooks key as text; a bad one `401`, as ' +
    'Xero requires; Intent to Receive (signed, `events: []`) is answered `200` with no body, and no run',
  deliveryId: null,
  dedup: "the body's digest (events carry no id of their own)",
  redelivery: 'retried with decreasing frequency for up to 24 hours, then the webhook is disabled',
  handshake: null,
  heartbeat: { json: 'events' },
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 401,
  sample: json({
    events: [
      {
        resourceUrl: 'https://api.xero.com/api.xro/2.0/Invoices/0d3b3ec4-0000-4000-8000-000000000001',
        resourceId: '0d3b3ec4-0000-4000-8000-000000000001',
        eventDateUtc: '2026-01-01T12:00:00.000',
        eventType: 'CREATE',
        eventCategory: 'INVOICE',
        tenantId: 'c2cc9b6e-0000-4000-8000-000000000002',
        tenantType: 'ORGANISATION',
      },
    ],
    firstEventSequence: 1,
    lastEventSequence: 1,
    entropy: 'MADEUPENTROPYVALUE01',
  }),
};
