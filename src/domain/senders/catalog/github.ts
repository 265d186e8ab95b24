/** GitHub: its check's parameters (../families/) and what a person sees. */
import { json, secret, type Sender } from './sender';

export const github: Sender = {
  label: 'GitHub',
  group: 'dev-tools',
  settings: [secret('Secret')],
  setup:
    'Repository (or organization) → Settings → Webhooks → Add webhook: paste the URL as Payload URL; ' +
    'either content type works. Choose a Secret and paste the same here.',
  signature: { family: 'hmac', header: 'X-Hub-Signature-256', prefix: 'sha256=', encoding: 'hex', content: '{body}' },
  checks:
    '`X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>`; a form body (`payload=`) gives the same trigger data',
  deliveryId: null,
  keeps: ['x-github-delivery', 'x-github-event'],
  dedup: "the body's digest (`X-GitHub-Delivery` is kept, not signed)",
  redelivery:
    "not retried: a failed delivery is only sent again by hand, from the hook's Recent Deliveries or the REST API",
  handshake: {
    kind: 'runs',
    method: 'POST',
    request: 'a `ping` event when the hook is made',
    answer: 'none needed: it runs as a delivery',
  },
  toleranceSeconds: null,
  bodyFormat: 'json',
  formEnvelope: true,
  refusalStatus: 400,
  sample: json({ zen: 'Keep it logically awesome.', hook_id: 1, repository: { full_name: 'octo/hello' } }),
};
