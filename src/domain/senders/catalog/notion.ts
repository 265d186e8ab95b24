/** Notion: its check's parameters (../families/) and what a person sees. */
import { json, type Sender } from './sender';

export const notion: Sender = {
  label: 'Notion',
  group: 'productivity',
  settings: [],
  setup:
    'notion.so/profile/integrations → your integration → Webhooks → Create a subscription: paste the URL. ' +
    'Confirm the token it sent on this robot\'s card, which then shows it once: paste it into Notion\'s "Verify".',
  signature: { family: 'hmac', header: 'X-Notion-Signature', prefix: 'sha256=', encoding: 'hex', content: '{body}' },
  checks: '`X-Notion-Signature: sha256=<hex HMAC-SHA256 of the body>` under the verification token',
  deliveryId: { json: 'id' },
  dedup: "the event `id` (signed; Notion's retries change `attempt_number`)",
  redelivery: 'retried with back-off, the same event `id` with `attempt_number` raised [unconfirmed: schedule]',
  handshake: {
    kind: 'learn-secret',
    from: { json: 'verification_token' },
    method: 'POST',
    request: '`{"verification_token":"…"}`',
    answer: "`200`; the token is kept pending on the robot's URL until an editor confirms it (shown then once)",
  },
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  secretFromHandshake: { pasteBack: 'Notion verification token' },
  sample: json({ id: 'evt-1', type: 'page.created', entity: { id: 'page-1', type: 'page' }, attempt_number: 1 }),
};
