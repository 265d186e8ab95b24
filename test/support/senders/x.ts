/**
 * X (Twitter) Account Activity as the tests play it. X publishes no library that signs or verifies for
 * Node; deliveries are signed as its guide "Securing webhooks" (docs.x.com/x-api/webhooks/quickstart)
 * says, `x-twitter-webhooks-signature: sha256=<base64 HMAC-SHA256 of the body>`, keyed with the app's
 * Consumer Secret (API Key Secret) as text. Its handshake is the Challenge-Response Check: a GET with
 * `crc_token`, at registration, on a PUT of the webhook and periodically after, answered 200 with JSON
 * `{"response_token": "sha256=<base64 HMAC-SHA256 of the crc_token>"}` under the same secret.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { madeSecret, type Answer, type SenderFixture, type SentRequest } from './fixture';

const consumerSecret = madeSecret('x-consumer-secret', 50);
const otherSecret = madeSecret('x-other-secret', 50);

const activity = {
  for_user_id: '2244994945',
  tweet_create_events: [
    {
      created_at: 'Thu Jan 01 12:00:00 +0000 2026',
      id_str: '1874000000000000001',
      text: '@XDevelopers hello from the robot',
      user: { id: 3001, id_str: '3001', name: 'Ann', screen_name: 'ann' },
    },
  ],
};
const body = JSON.stringify(activity);

/** `sha256=` and the base64 HMAC-SHA256 of `message` under `secret`: both the signature and the CRC answer. */
export const xDigest = (secret: string, message: string | Buffer) =>
  'sha256=' + createHmac('sha256', secret).update(message).digest('base64');

const sign = (secret: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json', 'x-twitter-webhooks-signature': xDigest(secret, body) },
  body,
});

let lastToken = '';

export const xSender: SenderFixture = {
  name: 'x',
  verification: { scheme: 'x', secret: consumerSecret },
  body,
  triggerData: activity,
  signed: (body) => sign(consumerSecret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
  handshake: {
    request() {
      lastToken = randomBytes(24).toString('base64url');
      return { method: 'GET', query: `?crc_token=${lastToken}`, headers: {}, body: '' };
    },
    accepts(answer: Answer) {
      if (answer.status !== 200) throw new Error(`X expects 200 for its CRC, got ${answer.status}`);
      if (!/^application\/json\b/.test(answer.headers['content-type'] ?? '')) throw new Error('X reads JSON');
      const parsed: unknown = JSON.parse(answer.body);
      const token = parsed !== null && typeof parsed === 'object' ? Reflect.get(parsed, 'response_token') : undefined;
      if (token !== xDigest(consumerSecret, lastToken)) throw new Error('the response_token is not the CRC answer');
    },
  },
};
