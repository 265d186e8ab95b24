/** Front (rule webhooks): its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const front: Sender = {
  label: 'Front (rule webhooks)',
  group: 'messaging',
  settings: [secret('API secret')],
  setup:
    'Settings → Rules → new rule with the action "Send to a webhook": paste the URL. Copy the API secret ' +
    '(Company Settings → Plugins & API → API) here.',
  signature: { family: 'hmac', header: 'X-Front-Signature', algorithm: 'sha1', encoding: 'base64', content: '{body}' },
  checks:
    '`X-Front-Signature: <base64 HMAC-SHA1 of the body>` under the API secret (application webhooks, signed ' +
    'otherwise, are not taken)',
  deliveryId: { json: 'id' },
  dedup: "the event's `id` (`evt_…`, signed)",
  redelivery: 'rule webhooks are not retried',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    id: 'evt_55c8c149',
    type: 'assign',
    emitted_at: 1767268800.123,
    conversation: { id: 'cnv_55c8c149', subject: 'Where is my order?', status: 'assigned' },
    target: { _meta: { type: 'teammate' }, data: { id: 'tea_6r55c8c149', email: 'bob@example.com' } },
  }),
};
