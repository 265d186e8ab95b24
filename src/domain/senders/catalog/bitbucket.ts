/** Bitbucket: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const bitbucket: Sender = {
  label: 'Bitbucket Cloud',
  group: 'dev-tools',
  settings: [secret('Secret')],
  setup:
    'Repository settings → Webhooks → Add webhook: a Title, paste the URL, set a Secret (type one or Generate ' +
    'secret; paste the same here), choose the Triggers, Save.',
  signature: { family: 'hmac', header: 'X-Hub-Signature', prefix: 'sha256=', encoding: 'hex', content: '{body}' },
  checks: '`X-Hub-Signature: sha256=<hex HMAC-SHA256 of the body>` under the Secret as text',
  deliveryId: null,
  dedup: "the body's digest (`X-Request-UUID` and `X-Hook-UUID` are kept, not signed)",
  redelivery:
    "a failed delivery is retried a few times (`X-Attempt-Number` counts) [unconfirmed]; the webhook's View " +
    'requests page can resend one',
  keeps: ['x-event-key', 'x-hook-uuid', 'x-request-uuid', 'x-attempt-number'],
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({
    push: { changes: [{ new: { type: 'branch', name: 'main', target: { type: 'commit', hash: '1e65c05c' } } }] },
    repository: { type: 'repository', full_name: 'made-up/robot', name: 'robot' },
    actor: { type: 'user', display_name: 'Ann' },
  }),
};
