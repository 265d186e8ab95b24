/** Resend: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, secret, type Sender } from './sender';

export const resend: Sender = {
  label: 'Resend',
  group: 'email',
  settings: [
    secret('Signing secret (whsec_…)', {
      pattern: { source: '^whsec_[A-Za-z0-9+/=]+$', message: 'a signing secret: whsec_ followed by base64' },
    }),
  ],
  setup:
    'Resend → Webhooks → Add Webhook: paste the URL, pick the events. Open the webhook and copy its signing ' +
    'secret (whsec_…) here.',
  signature: { family: 'standard-webhooks' },
  checks:
    'Svix: `svix-signature` over `id.timestamp.body`, HMAC-SHA256 with the `standardwebhooks` package, ' +
    'the timestamp within 5 minutes',
  deliveryId: 'own',
  dedup: '`svix-id` (signed)',
  redelivery: "Svix's schedule with the same `svix-id`; failed events replayed from the dashboard [unconfirmed]",
  handshake: null,
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    type: 'email.delivered',
    created_at: '2026-01-01T12:00:00.000Z',
    data: { email_id: '56761188-7520-42d8-8898-ff6fc54ce618', to: ['ann@example.com'], subject: 'Hello' },
  }),
};
