/**
 * GitLab as the tests play it: nothing is signed; the Secret token travels as it is in
 * `X-Gitlab-Token`, with `X-Gitlab-Event`, `Idempotency-Key` (one per event, the same on a resend:
 * here derived from the body, so the same body signed twice is a resend), `X-Gitlab-Event-UUID`,
 * `X-Gitlab-Webhook-UUID` (one per request) and `X-Gitlab-Instance`. No library: GitLab publishes
 * none for receiving webhooks.
 */
import { createHash, randomUUID } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

export const gitlabSecret = madeSecret('gitlab-secret-token', 40);
const otherSecret = madeSecret('gitlab-other-token', 40);

const body = JSON.stringify({
  object_kind: 'push',
  event_name: 'push',
  before: '0000000000000000000000000000000000000000',
  after: '1f2e3d4c5b6a79881f2e3d4c5b6a79881f2e3d4c',
  ref: 'refs/heads/main',
  user_username: 'ann',
  project: { id: 15, path_with_namespace: 'ann/hello', default_branch: 'main' },
  total_commits_count: 1,
});

/** A UUID-shaped id derived from `seed`. */
export function uuidOf(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const sign = (token: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {
    'Content-Type': 'application/json',
    'User-Agent': 'GitLab/17.6.0',
    'X-Gitlab-Event': 'Push Hook',
    'X-Gitlab-Token': token,
    'Idempotency-Key': uuidOf('idempotency:' + body),
    'X-Gitlab-Event-UUID': uuidOf('event:' + body),
    'X-Gitlab-Webhook-UUID': randomUUID(),
    'X-Gitlab-Instance': 'https://gitlab.example.com',
  },
  body,
});

export const gitlabSender: SenderFixture = {
  name: 'gitlab',
  verification: { scheme: 'gitlab', secret: gitlabSecret },
  body,
  triggerData: JSON.parse(body),
  signed: (body) => sign(gitlabSecret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
};
