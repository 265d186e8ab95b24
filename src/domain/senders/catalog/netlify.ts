/** Netlify deploy notifications: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const netlify: Sender = {
  label: 'Netlify deploy notifications',
  group: 'dev-tools',
  settings: [secret('JWS secret token')],
  setup:
    'Project configuration → Notifications → Deploy notifications → Add notification → HTTP POST request: ' +
    'choose the event, paste the URL as URL to notify, and set a JWS secret token; paste the same here.',
  signature: { family: 'jwt', header: 'X-Webhook-Signature', issuer: 'netlify', bodyDigest: 'sha256' },
  checks:
    '`X-Webhook-Signature: <JWT, HS256 under the JWS secret token>` whose `iss` is `netlify` and whose `sha256` ' +
    "is the body's hex SHA-256; it signs no time [unconfirmed from Netlify's own text]",
  deliveryId: null,
  dedup: "the body's digest (its `id` is the deploy's, the same for each of its events)",
  redelivery: 'no retry documented [unconfirmed]',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    id: '6790a0000000000000000001',
    site_id: 'fa4dd95a-0000-4000-8000-000000000001',
    state: 'ready',
    name: 'made-up-site',
    ssl_url: 'https://made-up-site.netlify.app',
    branch: 'main',
    context: 'production',
    title: 'Ship it',
  }),
};
