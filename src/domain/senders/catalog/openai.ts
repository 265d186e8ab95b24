/** OpenAI: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, whsecSecret, type Sender } from './sender';

export const openai: Sender = {
  label: 'OpenAI',
  group: 'ai',
  settings: [whsecSecret('Signing secret (whsec_…)')],
  setup:
    'platform.openai.com → Settings → your project → Webhooks → Create: paste the URL, pick the events. Copy ' +
    'the signing secret (whsec_…, shown once) here.',
  signature: { family: 'standard-webhooks' },
  checks:
    'Standard Webhooks: `webhook-signature` over `id.timestamp.body`, HMAC-SHA256 with the `standardwebhooks` ' +
    'package, the timestamp within 5 minutes',
  deliveryId: 'own',
  dedup: '`webhook-id` (signed)',
  redelivery: 'retried with exponential back-off for up to 72 hours, with the same `webhook-id` [unconfirmed]',
  handshake: null,
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    id: 'evt_685343a1381c819085d44c354e1b330e',
    object: 'event',
    created_at: 1767268800,
    type: 'response.completed',
    data: { id: 'resp_abc123' },
  }),
};
