/** Standard Webhooks / Svix: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, secret, type Sender } from './sender';

export const standardWebhooks: Sender = {
  label: 'Standard Webhooks / Svix',
  group: 'generic',
  examples: 'Clerk, Resend, Brex, Svix-powered senders, OpenAI',
  settings: [
    secret('Signing secret (whsec_…), or public key (whpk_…) for a sender that signs with Ed25519', {
      pattern: {
        source: '^(whsec_|whpk_)?[A-Za-z0-9+/=]+$',
        message: 'a standard-webhooks secret: whsec_ (or whpk_) followed by base64',
      },
    }),
  ],
  setup:
    "In the sender's webhook settings add an endpoint: paste the URL. " + 'Copy its signing secret (whsec_…) here.',
  signature: { family: 'standard-webhooks' },
  checks:
    '`webhook-signature` (or `svix-signature`) over `id.timestamp.body`, HMAC-SHA256, with the `standardwebhooks` ' +
    'package (or `v1a` Ed25519 signatures under a `whpk_` public key, by node:crypto); ' +
    'the `webhook-*` names are read, else `svix-*`',
  deliveryId: 'own',
  dedup: '`webhook-id` (or `svix-id`): signed',
  redelivery:
    'as the sender does; the spec asks for retries with growing waits and the same `webhook-id` on each ' +
    '[unconfirmed]',
  handshake: null,
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({ type: 'user.created', data: { id: 'user_1', email: 'ann@example.com' } }),
};
