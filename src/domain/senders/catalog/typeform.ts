/** Typeform: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const typeform: Sender = {
  label: 'Typeform',
  group: 'forms',
  settings: [secret('Secret')],
  setup:
    'Open the form → Connect → Webhooks → Add a webhook: paste the URL. Edit it, type a Secret (paste the same ' +
    'here), save, and switch the webhook On: webhooks made there start Off.',
  signature: {
    family: 'hmac',
    header: 'Typeform-Signature',
    prefix: 'sha256=',
    encoding: 'base64',
    content: '{body}',
  },
  checks: '`Typeform-Signature: sha256=<base64 HMAC-SHA256 of the body>` under the Secret as text',
  deliveryId: { json: 'event_id' },
  dedup: '`event_id` (signed, the same when Typeform sends it again)',
  redelivery:
    'retried every 2 to 3 minutes for up to 10 hours, with the same `event_id`; an answer of 410 Gone turns ' +
    'the webhook off [unconfirmed]',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    event_id: '01JGXZ8Q4V6E1B2C3D4E5F6G7H',
    event_type: 'form_response',
    form_response: {
      form_id: 'lT4Z3j',
      submitted_at: '2026-01-01T12:00:00Z',
      answers: [{ type: 'email', email: 'ann@example.com', field: { id: 'JwWggjAKtOkA', type: 'email' } }],
    },
  }),
};
