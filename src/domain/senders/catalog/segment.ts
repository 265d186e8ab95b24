/** Segment: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const segment: Sender = {
  label: 'Segment (Webhooks destination)',
  group: 'marketing',
  settings: [secret('Shared Secret')],
  setup:
    'Segment → Connections → Catalog → Destinations → Webhooks (Actions): connect a source; under Settings → ' +
    'Advanced Settings type a Shared Secret (paste the same here); add a Send mapping with the URL, method POST ' +
    'and Batch Size 0, and enable it.',
  signature: { family: 'hmac', header: 'X-Signature', algorithm: 'sha1', encoding: 'hex', content: '{body}' },
  checks:
    '`X-Signature: <hex HMAC-SHA1 of the body>` under the Shared Secret as text; a batched delivery signs only ' +
    'its first event, so it cannot be checked: keep batching off',
  deliveryId: { json: 'messageId' },
  dedup: "`messageId` (signed, Segment's id of the event, the same when it retries)",
  redelivery:
    'an answer of 5xx is retried, several times over up to 4 hours, with the same event; a 4xx is not ' +
    "(classic destination; the Actions destination's schedule [unconfirmed])",
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    type: 'track',
    event: 'Order Completed',
    messageId: 'ajs-next-1767268800000-made-up-message-id',
    userId: '97980cfea0067',
    properties: { orderId: '50314b8e9bcf000000000000', revenue: 29.99, currency: 'USD' },
    timestamp: '2026-01-01T12:00:00.108Z',
  }),
};
