/** GoCardless: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const gocardless: Sender = {
  label: 'GoCardless',
  group: 'payments',
  settings: [secret('Secret (of the webhook endpoint)')],
  setup:
    'GoCardless Dashboard → Developers → Create → Webhook endpoint: name it, paste the URL, create; open the ' +
    'endpoint and copy its secret here.',
  signature: { family: 'hmac', header: 'Webhook-Signature', encoding: 'hex', content: '{body}' },
  checks:
    "`Webhook-Signature: <hex HMAC-SHA256 of the body>` under the endpoint's secret as text; a bad one `498` " +
    '(Token Invalid), as GoCardless requires',
  deliveryId: { json: 'meta.webhook_id' },
  dedup: '`meta.webhook_id` (signed, the same when GoCardless retries the webhook; each event has its own id)',
  redelivery:
    'a webhook answered with anything but 2xx is retried [unconfirmed: schedule]; the dashboard or API retries ' +
    'one on request, with the same body and `webhook_id`',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 498,
  sample: json({
    events: [
      {
        id: 'EV01J7QRF0KJWR',
        created_at: '2026-01-01T12:00:00.000Z',
        resource_type: 'mandates',
        action: 'active',
        links: { mandate: 'MD000ZQT5CPCVV' },
        details: { origin: 'gocardless', cause: 'mandate_activated' },
      },
    ],
    meta: { webhook_id: 'WB002KK5HPCPWD' },
  }),
};
