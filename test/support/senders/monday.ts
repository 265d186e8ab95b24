/**
 * monday.com as the tests play it (webhooks made by an app, the only ones monday signs). monday signs each
 * request with a JWT in `Authorization` (the token itself, no `Bearer`), HS256 under the app's Signing
 * Secret, with `aud` the webhook's URL and `exp` (developer.monday.com/apps/docs/authorization-header); its
 * docs verify it with `jsonwebtoken`, which signs it here. The JWT covers the URL and the time, not the body.
 * Its handshake: a JSON POST `{"challenge": …}` that must be answered 200 with the same JSON.
 */
import { randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { madeSecret, type Answer, type SenderFixture, type SentRequest } from './fixture';

const signingSecret = madeSecret('monday-signing-secret', 32);
const otherSecret = madeSecret('monday-other-secret', 32);
/** The JWT's life in monday's sample token (`exp` − `iat`). */
const LIFETIME_SECONDS = 300;

const event = {
  event: {
    app: 'monday',
    type: 'create_pulse',
    triggerTime: '2026-01-01T12:00:00.000Z',
    subscriptionId: 73759690,
    userId: 9603417,
    originalTriggerUuid: null,
    boardId: 1771812698,
    pulseId: 1772099344,
    pulseName: 'Ship it',
    groupId: 'topics',
    groupName: 'Group Title',
    groupColor: '#579bfc',
    isTopGroup: true,
    columnValues: {},
    triggerUuid: 'b5ed2e17c530f43668de130142445cba',
  },
};
const body = JSON.stringify(event);

/** The JWT monday puts in `Authorization` for a request to `url` at `at`. */
export function mondayToken(secret: string, url: string, at: Date): string {
  const iat = Math.floor(at.getTime() / 1000);
  const claims = { accountId: 1825528, userId: 9603417, aud: url, iat, exp: iat + LIFETIME_SECONDS };
  return jwt.sign({ ...claims, shortLivedToken: 'made-up-short-lived-token' }, secret, { algorithm: 'HS256' });
}

const sign = (secret: string, body: string, url: string, at: Date): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json', Authorization: mondayToken(secret, url, at) },
  body,
});

let lastChallenge = '';

export const mondaySender: SenderFixture = {
  name: 'monday',
  verification: { scheme: 'monday', secret: signingSecret },
  body,
  triggerData: event,
  signed: (body, url, at) => sign(signingSecret, body, url, at),
  signedWrongly: (body, url, at) => sign(otherSecret, body, url, at),
  toleranceSeconds: LIFETIME_SECONDS,
  handshake: {
    // Sent without Authorization: a webhook made with a personal token never carries one, and monday's docs
    // do not say the challenge of an app's webhook does.
    request() {
      lastChallenge = randomBytes(39).toString('base64url');
      const body = JSON.stringify({ challenge: lastChallenge });
      return { method: 'POST', query: '', headers: { 'Content-Type': 'application/json' }, body };
    },
    accepts(answer: Answer) {
      if (answer.status !== 200) throw new Error(`monday expects 200 for its challenge, got ${answer.status}`);
      const parsed: unknown = JSON.parse(answer.body);
      const challenge = parsed !== null && typeof parsed === 'object' ? Reflect.get(parsed, 'challenge') : undefined;
      if (challenge !== lastChallenge) throw new Error('monday expects its challenge back as JSON `challenge`');
    },
  },
  sdkAccepts(sent, url) {
    jwt.verify(String(sent.headers.Authorization), signingSecret, { audience: url, algorithms: ['HS256'] });
  },
};
