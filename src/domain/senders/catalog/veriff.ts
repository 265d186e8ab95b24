/** Veriff: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const veriff: Sender = {
  label: 'Veriff',
  group: 'identity',
  settings: [secret('Shared secret key')],
  setup:
    'Veriff Customer Portal → All Integrations → the integration → Settings: paste the URL as Webhook decisions ' +
    'URL (and Webhook events URL); copy its Shared secret key here (the API key beside it is not needed).',
  signature: { family: 'hmac', header: 'X-HMAC-SIGNATURE', encoding: 'hex', content: '{body}' },
  checks: '`X-HMAC-SIGNATURE: <hex HMAC-SHA256 of the body>` under the shared secret key as text',
  deliveryId: null,
  dedup: "the body's digest (a decision names its session and attempt, but no id of the webhook)",
  redelivery: 'not stated in the pages read [unconfirmed]',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    status: 'success',
    verification: {
      id: '00000000-0000-4000-8000-000000000001',
      attemptId: '00000000-0000-4000-8000-000000000002',
      code: 9001,
      status: 'approved',
      vendorData: 'customer-1234',
      decisionTime: '2026-01-01T12:00:00.000Z',
    },
  }),
};
