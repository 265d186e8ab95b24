/** Mautic: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const mautic: Sender = {
  label: 'Mautic',
  group: 'marketing',
  settings: [secret('Secret')],
  setup:
    'Mautic → Settings (cog) → Webhooks → New: paste the URL as Webhook POST Url, pick the Webhook Events, copy ' +
    'the Secret here, Save ("Send Test Payload" sends a signed sample).',
  signature: { family: 'hmac', header: 'Webhook-Signature', encoding: 'base64', content: '{body}' },
  checks: "`Webhook-Signature: <base64 HMAC-SHA256 of the body>` under the webhook's Secret as text",
  deliveryId: null,
  dedup: "the body's digest (events batched under their trigger's name, each with its time; no event id)",
  redelivery:
    'queued events that failed are sent again on the next webhook cron run; a webhook that keeps failing is ' +
    'unpublished [unconfirmed]',
  keeps: ['x-origin-base-url'],
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    'mautic.lead_post_save_new': [
      {
        contact: { id: 47, fields: { core: { email: { alias: 'email', value: 'ann@example.com' } } } },
        timestamp: '2026-01-01T12:00:00+00:00',
      },
    ],
    timestamp: '2026-01-01T12:00:01+00:00',
  }),
};
