/** Linear: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const linear: Sender = {
  label: 'Linear',
  group: 'dev-tools',
  settings: [secret('Signing secret (lin_wh_…)')],
  setup:
    'Settings → API → Webhooks → New webhook: paste the URL, choose the resource types. Copy the signing ' +
    "secret shown on the webhook's page here.",
  signature: {
    family: 'hmac',
    header: 'Linear-Signature',
    encoding: 'hex',
    content: '{body}',
    time: { json: 'webhookTimestamp', unit: 'ms' },
  },
  checks:
    "`Linear-Signature: <hex HMAC-SHA256 of the body>`; the body's `webhookTimestamp` (unix ms, signed with it) " +
    'within 60 seconds, as its SDK (the unsigned `Linear-Timestamp` header is not read)',
  deliveryId: null,
  dedup: "the body's digest (`Linear-Delivery` is kept, not signed)",
  redelivery:
    'retried on an answer other than 200 with growing delays (about a minute, then an hour, then hours) and ' +
    'disabled after repeated failures [unconfirmed]',
  keeps: ['linear-delivery', 'linear-event'],
  handshake: null,
  toleranceSeconds: 60,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    action: 'create',
    type: 'Issue',
    data: { id: 'issue_1', identifier: 'ENG-42', title: 'Ship it' },
    url: 'https://linear.app/acme/issue/ENG-42/ship-it',
    webhookTimestamp: 1767268800000,
    webhookId: 'webhook_1',
  }),
};
