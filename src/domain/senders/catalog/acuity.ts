/** Acuity Scheduling: its check's parameters (../families/) and what a person sees. */
import { form, secret, type Sender } from './sender';

export const acuity: Sender = {
  label: 'Acuity Scheduling',
  group: 'productivity',
  settings: [secret('API Key')],
  setup:
    'Acuity → Integrations → Webhooks: paste the URL for the events you want (appointment scheduled, ' +
    'rescheduled, canceled, changed; order completed), Save. Integrations → API → API Credentials: copy the ' +
    "main admin's API Key here (for a webhook made through the API, its creator's).",
  signature: { family: 'hmac', header: 'X-Acuity-Signature', encoding: 'base64', content: '{body}' },
  checks: '`X-Acuity-Signature: <base64 HMAC-SHA256 of the form body>` under the API Key as text',
  deliveryId: null,
  dedup:
    "the body's digest for 60 s (a form of `action` and the appointment's `id`: two real changes of one " +
    'appointment send the same body, so a minute apart they are two runs)',
  redelivery: 'not stated in its docs [unconfirmed]',
  handshake: null,
  toleranceSeconds: null,
  bodyWindowSeconds: 60,
  bodyFormat: 'form',
  refusalStatus: 400,
  sample: form({ action: 'scheduled', id: '1234567890', calendarID: '5678901', appointmentTypeID: '3456789' }),
};
