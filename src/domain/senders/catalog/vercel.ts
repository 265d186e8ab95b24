/** Vercel: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const vercel: Sender = {
  label: 'Vercel',
  group: 'dev-tools',
  settings: [secret("Secret (or an integration's Client Secret)")],
  setup:
    'Vercel → Team Settings → Webhooks → Create Webhook: choose the events and projects, paste the URL; copy ' +
    "the secret the dialog shows once here. An integration's webhooks use its Client Secret instead.",
  signature: { family: 'hmac', header: 'x-vercel-signature', algorithm: 'sha1', encoding: 'hex', content: '{body}' },
  checks: '`x-vercel-signature: <hex HMAC-SHA1 of the body>` under the secret as text',
  deliveryId: { json: 'id' },
  dedup: "the event's `id` (signed)",
  redelivery: 'no retry documented [unconfirmed]',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    id: 'HlFQ3GRrYgK8tAKn0dNwPGmf',
    type: 'deployment.succeeded',
    createdAt: 1767268800000,
    region: 'iad1',
    payload: { deployment: { id: 'dpl_2Gd8f3f1a4a3c1e2b3c4d5e6f7g8', name: 'robot-site' }, target: 'production' },
  }),
};
