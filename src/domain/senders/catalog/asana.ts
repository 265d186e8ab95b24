/** Asana: its check's parameters (../families/) and what a person sees. */
import { json, type Sender } from './sender';

export const asana: Sender = {
  label: 'Asana',
  group: 'productivity',
  settings: [],
  setup:
    'Create the webhook (POST /webhooks) with the URL as target. Nothing to fill in: Asana gives its secret in ' +
    "its first request; confirm it on this robot's card (its events are refused until then; Asana retries them).",
  signature: { family: 'hmac', header: 'X-Hook-Signature', encoding: 'hex', content: '{body}' },
  checks:
    '`X-Hook-Signature: <hex HMAC-SHA256 of the body>` under the secret of the handshake; a heartbeat ' +
    '(`{"events":[]}`, signed) is answered `200` and logged as a handshake, with no run',
  deliveryId: null,
  dedup: "the body's digest",
  redelivery:
    'no 2xx within 10 seconds: resent for up to 24 hours, then given up; delivery is at most once and cannot ' +
    'be replayed',
  handshake: {
    kind: 'learn-secret',
    from: { header: 'X-Hook-Secret' },
    method: 'POST',
    request: '`X-Hook-Secret` header',
    answer:
      "`200` with the same `X-Hook-Secret`; a new secret is kept pending on the robot's URL until an editor confirms it",
  },
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  secretFromHandshake: {},
  heartbeat: { json: 'events' },
  sample: json({ events: [{ action: 'changed', resource: { gid: '1', resource_type: 'task' } }] }),
};
