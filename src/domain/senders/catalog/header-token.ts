/** A fixed header: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const headerToken: Sender = {
  label: 'A fixed header',
  group: 'generic',
  examples: "n8n's Header Auth, Convoy's API-key verifier, in-house senders",
  settings: [{ name: 'header', label: 'Header name', secret: false }, secret('Header value')],
  setup: 'In the sender, add the header with the value you give here.',
  signature: { family: 'static', header: { setting: 'header' } },
  checks: 'the header equals the value (constant time)',
  deliveryId: { headers: ['idempotency-key', 'webhook-id'] },
  dedup: "`Idempotency-Key`, else `webhook-id`, else the body's digest (the credential is a static token)",
  redelivery: 'as the sender does',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({ name: 'Ann', customer: { email: 'ann@example.com' } }),
};
