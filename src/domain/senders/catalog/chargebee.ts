/** Chargebee: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const chargebee: Sender = {
  label: 'Chargebee',
  group: 'payments',
  settings: [{ name: 'username', label: 'Username', secret: false }, secret('Password')],
  setup:
    'Chargebee → Settings → Configure Chargebee → API Keys and Webhooks → Webhooks → Add Webhook: paste the URL, ' +
    'switch on "Protect webhook URL with basic authentication", type a Username and Password (the same here), ' +
    'pick the events, Create.',
  signature: { family: 'basic' },
  checks: '`Authorization: Basic` with the Username and Password (constant time); Chargebee signs nothing',
  deliveryId: { json: 'id' },
  dedup: "the event's `id` (Chargebee's, the same on its retries and resends; the credential is static)",
  redelivery:
    'anything but 200 is retried up to 7 times with growing waits over about 3 days, with the same event ' +
    '`id`, then the site admins are emailed; the console resends an event on request',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    id: 'ev_made_up_0001',
    occurred_at: 1767268800,
    object: 'event',
    api_version: 'v2',
    event_type: 'customer_created',
    content: { customer: { id: 'made_up_customer', first_name: 'Ann', email: 'ann@example.com' } },
  }),
};
