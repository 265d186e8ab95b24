/**
 * Trello as the tests play it. Trello publishes no library that signs or verifies: deliveries are signed
 * as its webhooks guide (developer.atlassian.com/cloud/trello/guides/rest-api/webhooks) says,
 * `X-Trello-Webhook: <base64 HMAC-SHA1 of the body followed by the callbackURL>`, keyed with the
 * application's secret (the Power-Up's OAuth secret) as text. Its handshake: when the webhook is created,
 * a HEAD request to the callbackURL, and the webhook is not created unless the answer is 200.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type Answer, type SenderFixture, type SentRequest } from './fixture';

const appSecret = madeSecret('trello-app-secret', 64);
const otherSecret = madeSecret('trello-other-secret', 64);

const action = {
  action: {
    id: '6790a0000000000000000001',
    idMemberCreator: '5a0000000000000000000001',
    type: 'createCard',
    date: '2026-01-01T12:00:00.000Z',
    data: {
      card: { id: '6790a0000000000000000002', name: 'Ship it', idShort: 12, shortLink: 'AbCdEf12' },
      list: { id: '5a0000000000000000000002', name: 'To do' },
      board: { id: '5a0000000000000000000003', name: 'Roadmap', shortLink: 'GhIjKl34' },
    },
    memberCreator: { id: '5a0000000000000000000001', fullName: 'Ann Lee', username: 'annlee' },
  },
  model: { id: '5a0000000000000000000003', name: 'Roadmap', url: 'https://trello.com/b/GhIjKl34/roadmap' },
  webhook: {
    id: '6790a0000000000000000003',
    idModel: '5a0000000000000000000003',
    description: 'robot',
    active: true,
  },
};
const body = JSON.stringify(action);

/** The header's value for `body` sent to `callbackUrl` (exactly as given when the webhook was made). */
export const trelloSignature = (secret: string, body: string | Buffer, callbackUrl: string) =>
  createHmac('sha1', secret).update(body).update(callbackUrl).digest('base64');

const sign = (secret: string, body: string, url: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json', 'X-Trello-Webhook': trelloSignature(secret, body, url) },
  body,
});

export const trelloSender: SenderFixture = {
  name: 'trello',
  verification: { scheme: 'trello', secret: appSecret },
  body,
  triggerData: action,
  signed: (body, url) => sign(appSecret, body, url),
  signedWrongly: (body, url) => sign(otherSecret, body, url),
  toleranceSeconds: null,
  handshake: {
    request: () => ({ method: 'HEAD', query: '', headers: {}, body: '' }),
    accepts(answer: Answer) {
      // "if a 200 status code is not returned in the response, then the webhook will not be created"
      if (answer.status !== 200) throw new Error(`Trello creates the webhook only on 200, got ${answer.status}`);
    },
  },
};
