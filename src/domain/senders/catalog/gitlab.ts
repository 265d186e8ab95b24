/** GitLab: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const gitlab: Sender = {
  label: 'GitLab',
  group: 'dev-tools',
  settings: [secret('Secret token')],
  setup: 'Project → Settings → Webhooks → Add new webhook: paste the URL and the same Secret token as here.',
  signature: { family: 'static', header: 'X-Gitlab-Token' },
  checks: '`X-Gitlab-Token` equals the secret (constant time)',
  deliveryId: { headers: ['idempotency-key', 'x-gitlab-event-uuid'] },
  keeps: ['x-gitlab-event', 'x-gitlab-webhook-uuid', 'x-gitlab-instance'],
  dedup: '`Idempotency-Key`, else `X-Gitlab-Event-UUID` (the credential is a static token)',
  redelivery:
    'a hook failing 4 times in a row is paused for growing periods, then disabled [unconfirmed: whether a ' +
    'failed delivery is retried]',
  handshake: null,
  toleranceSeconds: null,
  bodyFormat: 'json',
  refusalStatus: 400,
  sample: json({ object_kind: 'push', ref: 'refs/heads/main', project: { path_with_namespace: 'ann/hello' } }),
};
