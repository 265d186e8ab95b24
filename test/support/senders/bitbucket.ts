/**
 * Bitbucket Cloud as the tests play it. Atlassian publishes no library that signs Bitbucket's
 * webhooks: deliveries are signed as its "Manage webhooks" page describes, `X-Hub-Signature:
 * sha256=<hex HMAC-SHA256 of the body>`, keyed with the webhook's Secret (repository settings →
 * Webhooks) as text. No signed time, no handshake. `X-Request-UUID` names the request; `X-Hook-UUID`
 * the webhook (neither signed).
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const secret = madeSecret('bitbucket-webhook-secret', 40);
const otherSecret = madeSecret('bitbucket-other-secret', 40);

const event = {
  push: {
    changes: [
      {
        new: {
          type: 'branch',
          name: 'main',
          target: { type: 'commit', hash: '1e65c05c1d5171631d92438a13901ca7dae9618c' },
        },
        old: {
          type: 'branch',
          name: 'main',
          target: { type: 'commit', hash: '4ea1c2b8d1c2e1f0a9b8c7d6e5f4a3b2c1d0e9f8' },
        },
        created: false,
        closed: false,
        forced: false,
      },
    ],
  },
  repository: {
    type: 'repository',
    full_name: 'made-up/robot',
    name: 'robot',
    uuid: '{2c8a2b0a-0000-4000-8000-000000000001}',
    is_private: true,
  },
  actor: { type: 'user', display_name: 'Ann', uuid: '{3d9b2b0a-0000-4000-8000-000000000002}' },
};
const body = JSON.stringify(event);

/** The `X-Hub-Signature` of `body` under `key`. */
export const bitbucketSignature = (key: string, body: string | Buffer) =>
  `sha256=${createHmac('sha256', key).update(body).digest('hex')}`;

const sign = (key: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {
    'Content-Type': 'application/json',
    'User-Agent': 'Bitbucket-Webhooks/2.0',
    'X-Event-Key': 'repo:push',
    'X-Hook-UUID': '4ea02b0a-0000-4000-8000-000000000003',
    'X-Request-UUID': '5fb12b0a-0000-4000-8000-000000000004',
    'X-Attempt-Number': '1',
    'X-Hub-Signature': bitbucketSignature(key, body),
  },
  body,
});

export const bitbucketSender: SenderFixture = {
  name: 'bitbucket',
  verification: { scheme: 'bitbucket', secret },
  body,
  triggerData: event,
  signed: (body) => sign(secret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
};
