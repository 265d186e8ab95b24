/** HTTP Basic credentials: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const basic: Sender = {
  label: 'HTTP Basic credentials',
  group: 'generic',
  examples: 'senders that only take https://user:pass@… URLs',
  settings: [{ name: 'username', label: 'User name', secret: false }, secret('Password')],
  setup: 'Give the sender the URL with the credentials in it: https://user:password@host/api/webhooks/…',
  signature: { family: 'basic' },
  checks: '`Authorization: Basic` with the user name and password (constant time)',
  deliveryId: { headers: ['idempotency-key', 'webhook-id'] },
  dedup: "`Idempotency-Key`, else `webhook-id`, else the body's digest (the credential is a static token)",
  redelivery: 'as the sender does',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({ name: 'Ann', customer: { email: 'ann@example.com' } }),
};
