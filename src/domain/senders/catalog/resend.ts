/** Resend: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, SENT_BY_SVIX, whsecSecret, type Sender } from './sender';

export const resend: Sender = {
  label: 'Resend',
  group: 'email',
  settings: [whsecSecret('Signing secret (whsec_…)')],
  setup:
    'Resend → Webhooks → Add Webhook: paste the URL, pick the events. Open the webhook and copy its signing ' +
    'secret (whsec_…) here.',
  ...SENT_BY_SVIX,
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
