/** Zendesk: its check's parameters (../families/) and what a person sees. */
import { FIVE_MINUTES, json, secret, type Sender } from './sender';

export const zendesk: Sender = {
  label: 'Zendesk',
  group: 'crm',
  settings: [secret('Signing secret')],
  setup:
    'Admin Center → Apps and integrations → Webhooks → Create webhook: paste the URL (POST, JSON). Once saved, ' +
    'open the webhook, Reveal secret, and paste it here.',
  signature: {
    family: 'hmac',
    header: 'X-Zendesk-Webhook-Signature',
    encoding: 'base64',
    content: '{time}{body}',
    time: { header: 'X-Zendesk-Webhook-Signature-Timestamp', unit: 'iso' },
  },
  checks:
    '`X-Zendesk-Webhook-Signature: <base64 HMAC-SHA256 of timestamp + body>`, the timestamp ' +
    '(`X-Zendesk-Webhook-Signature-Timestamp`, ISO 8601) within 5 minutes: Zendesk names no window',
  deliveryId: null,
  dedup:
    "the body's digest (an event webhook's body carries its event `id`; a trigger's body is the admin's own " +
    'template, where `id` may name a ticket; `X-Zendesk-Webhook-Invocation-Id` is kept, not signed)',
  redelivery:
    'retried a few times (about 3) on a timeout, 409, or 429/503 with Retry-After; a circuit breaker pauses ' +
    'a failing webhook; no manual resend [unconfirmed]',
  keeps: ['x-zendesk-webhook-id', 'x-zendesk-webhook-invocation-id', 'x-zendesk-account-id'],
  handshake: null,
  toleranceSeconds: FIVE_MINUTES,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    id: 'cbe4028c-7239-495d-b020-f22348516046',
    type: 'zen:event-type:user.created',
    subject: 'zen:user:1',
    time: '2026-01-01T12:00:00.000000000Z',
    detail: { id: '1', email: 'ann@example.com', name: 'Ann Lee' },
  }),
};
