/**
 * Dropbox as the tests play it, by its published algorithm (its SDK does not sign webhooks):
 * `X-Dropbox-Signature: <hex HMAC-SHA256 of the body under the App secret>`; the handshake is the
 * verification GET with a `challenge`, which Dropbox checks is echoed as text with
 * `X-Content-Type-Options: nosniff`.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type Answer, type SenderFixture, type SentRequest } from './fixture';

const appSecret = madeSecret('dropbox-app-secret', 15);
const otherSecret = madeSecret('dropbox-other', 15);
export const dropboxChallenge = 'made-up-challenge-1';

const notification = { list_folder: { accounts: ['dbid:made-up-account-1'] }, delta: { users: [12345] } };

const signedWith = (secret: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {
    'Content-Type': 'application/json',
    'X-Dropbox-Signature': createHmac('sha256', secret).update(body).digest('hex'),
  },
  body,
});

export const dropboxSender: SenderFixture = {
  name: 'dropbox',
  verification: { scheme: 'dropbox', secret: appSecret },
  body: JSON.stringify(notification),
  triggerData: notification,
  signed: (body) => signedWith(appSecret, body),
  signedWrongly: (body) => signedWith(otherSecret, body),
  toleranceSeconds: null,
  handshake: {
    request: () => ({ method: 'GET', query: `?challenge=${dropboxChallenge}`, headers: {}, body: '' }),
    // Dropbox: the challenge echoed, as text/plain with nosniff (its docs ask for both headers).
    accepts(answer: Answer) {
      if (answer.status !== 200) throw new Error(`Dropbox expects 200, got ${answer.status}`);
      if (answer.body !== dropboxChallenge) throw new Error(`Dropbox expects the challenge, got ${answer.body}`);
      if (!answer.headers['content-type']?.startsWith('text/plain')) {
        throw new Error(`Dropbox expects text/plain, got ${answer.headers['content-type']}`);
      }
      if (answer.headers['x-content-type-options'] !== 'nosniff') throw new Error('Dropbox expects nosniff');
    },
  },
};
