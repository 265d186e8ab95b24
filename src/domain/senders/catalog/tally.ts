/** Tally: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const tally: Sender = {
  label: 'Tally',
  group: 'forms',
  settings: [secret('Signing secret')],
  setup:
    'Open the form → Integrations → Webhooks → Connect: paste the URL as Endpoint URL, switch on Signing secret ' +
    'and copy it (or type one) here, Connect.',
  signature: { family: 'hmac', header: 'Tally-Signature', encoding: 'base64', content: '{body}' },
  checks: '`Tally-Signature: <base64 HMAC-SHA256 of the body>` under the signing secret as text',
  deliveryId: { json: 'eventId' },
  dedup: '`eventId` (signed, the same on its retries)',
  redelivery:
    'retried 5 times, after 5 minutes, 30 minutes, 1 hour, 6 hours and 24 hours, then dropped; its API retries ' +
    'one event on request; always the same `eventId`',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    eventId: '00000000-0000-4000-8000-000000000001',
    eventType: 'FORM_RESPONSE',
    createdAt: '2026-01-01T12:00:00.889Z',
    data: {
      responseId: '2wgx4n',
      formId: 'VwbNEw',
      formName: 'Contact form',
      fields: [{ key: 'question_mVGEg3', label: 'Email', type: 'INPUT_EMAIL', value: 'ann@example.com' }],
    },
  }),
};
