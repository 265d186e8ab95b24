/** Razorpay: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const razorpay: Sender = {
  label: 'Razorpay',
  group: 'payments',
  settings: [secret('Secret (of the webhook, not the API key secret)')],
  setup:
    'Razorpay Dashboard → Accounts & Settings → Webhooks → Add New Webhook: paste the URL, type a Secret ' +
    '(paste the same here), choose the Active Events, Create. Test and live mode are set up apart.',
  signature: { family: 'hmac', header: 'X-Razorpay-Signature', encoding: 'hex', content: '{body}' },
  checks: "`X-Razorpay-Signature: <hex HMAC-SHA256 of the body>` under the webhook's Secret as text",
  deliveryId: null,
  dedup: "the body's digest (`x-razorpay-event-id` is the same on retries but not signed; kept)",
  redelivery:
    'retried with exponential back-off for 24 hours, with the same body and event id, then the webhook is ' +
    'disabled; retries of events from before a secret change are still signed with the old secret',
  keeps: ['x-razorpay-event-id'],
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    entity: 'event',
    account_id: 'acc_BFQ7uQEaa7j2z7',
    event: 'payment.captured',
    contains: ['payment'],
    payload: { payment: { entity: { id: 'pay_DESlfW9H8K9uqM', amount: 100, currency: 'INR', status: 'captured' } } },
    created_at: 1767268801,
  }),
};
