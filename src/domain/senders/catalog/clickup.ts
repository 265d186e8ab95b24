/** ClickUp: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const clickup: Sender = {
  label: 'ClickUp',
  group: 'productivity',
  settings: [secret('Webhook secret (webhook.secret)')],
  setup:
    'ClickUp has no page for it: create the webhook with its API (POST https://api.clickup.com/api/v2/team/' +
    '<workspace id>/webhook with `endpoint` = the URL and the `events`), then paste the `webhook.secret` it ' +
    'returns here.',
  signature: { family: 'hmac', header: 'X-Signature', encoding: 'hex', content: '{body}' },
  checks: '`X-Signature: <hex HMAC-SHA256 of the body>` under `webhook.secret` as text',
  deliveryId: null,
  dedup: "the body's digest (`webhook_id` names the webhook, `history_items[].id` the change)",
  redelivery: 'no retry documented; a failing webhook is marked unhealthy, then suspended [unconfirmed]',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    event: 'taskCreated',
    history_items: [{ id: '2800763136717140857', type: 1, date: '1767268800000', field: 'status' }],
    task_id: '1vj37mc',
    webhook_id: '7689a169-a000-4985-8676-6902b96d6627',
  }),
};
