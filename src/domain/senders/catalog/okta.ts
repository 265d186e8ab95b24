/** Okta event hooks: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const okta: Sender = {
  label: 'Okta event hooks',
  group: 'identity',
  settings: [
    { name: 'header', label: 'Authentication field', secret: false, default: 'Authorization' },
    secret('Authentication secret'),
  ],
  setup:
    'Admin Console → Workflow → Event Hooks → Create: paste the URL, the same Authentication field and ' +
    'secret as here, then Verify.',
  signature: { family: 'static', header: { setting: 'header', default: 'Authorization' } },
  checks: 'the named header equals the secret (constant time)',
  deliveryId: null,
  keeps: ['x-okta-verification-challenge'],
  dedup: "the body's digest",
  redelivery: 'one retry when the answer takes over 3 seconds; errors are not retried [unconfirmed]',
  handshake: {
    kind: 'okta',
    method: 'GET',
    request: '`GET` with `x-okta-verification-challenge`',
    answer: '`200` JSON `{ "verification": … }`',
  },
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({ eventType: 'com.okta.event_hook', data: { events: [{ eventType: 'user.session.start' }] } }),
};
