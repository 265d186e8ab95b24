/** Pipedrive: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const pipedrive: Sender = {
  label: 'Pipedrive',
  group: 'crm',
  settings: [{ name: 'username', label: 'HTTP Auth username', secret: false }, secret('HTTP Auth password')],
  setup:
    'Pipedrive → Settings → Tools and apps → Webhooks → Create new webhook: pick the event, paste the URL as ' +
    'Endpoint URL, type an HTTP Auth username and password (the same here), version 2.0, Save. Or POST ' +
    '/v1/webhooks with subscription_url, http_auth_user, http_auth_password and version "2.0".',
  signature: { family: 'basic' },
  checks: '`Authorization: Basic` with the HTTP Auth username and password (constant time); Pipedrive signs nothing',
  deliveryId: { json: 'meta.id' },
  dedup:
    "`meta.id` (the event's id; the body itself changes between attempts, its `meta.attempt` counting them; the " +
    'credential is static)',
  redelivery:
    'an answer other than 2xx is retried, `meta.attempt` raised [unconfirmed: schedule, and that `meta.id` stays]',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    data: { id: 42, title: 'Acme deal', value: 5000, currency: 'EUR', status: 'open' },
    previous: null,
    meta: {
      action: 'create',
      entity: 'deal',
      entity_id: '42',
      id: '00000000-0000-4000-8000-000000000042',
      timestamp: '2026-01-01T12:00:00.000Z',
      version: '2.0',
      attempt: 1,
    },
  }),
};
