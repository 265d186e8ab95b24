/**
 * Okta event hooks as the tests play them: nothing is signed; every request carries the
 * Authentication secret in the Authentication field (`Authorization`), here a Basic credential as
 * Okta's guide suggests. Its handshake is the one-time verification GET, which carries the
 * Authentication header too, and Okta takes only `200` JSON `{"verification": <the challenge>}`.
 * No library: Okta publishes none for receiving event hooks.
 */
import { randomBytes } from 'node:crypto';
import { madeSecret, type Answer, type SenderFixture, type SentRequest } from './fixture';

export const OKTA_HEADER = 'Authorization';
const basic = (label: string) => 'Basic ' + Buffer.from(`okta-hook:${madeSecret(label)}`).toString('base64');
export const oktaSecret = basic('okta-authentication-secret');
const otherSecret = basic('okta-other-secret');

const body = JSON.stringify({
  eventType: 'com.okta.event_hook',
  eventTypeVersion: '1.0',
  cloudEventsVersion: '0.1',
  contentType: 'application/json',
  eventId: '6f1d2c3b-4a59-4e8f-9a0b-1c2d3e4f5a6b',
  eventTime: '2026-01-01T12:00:00.000Z',
  data: {
    events: [
      {
        uuid: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
        eventType: 'user.session.start',
        displayMessage: 'User login to Okta',
        actor: { id: '00u1', type: 'User', alternateId: 'ann@example.com', displayName: 'Ann' },
        outcome: { result: 'SUCCESS' },
      },
    ],
  },
});

const post = (credential: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { Accept: 'application/json', 'Content-Type': 'application/json', [OKTA_HEADER]: credential },
  body,
});

/** The verification GET Okta sends when Verify is pressed, with a fresh challenge. */
export function oktaVerification(credential: string | null = oktaSecret): { sent: SentRequest; challenge: string } {
  const challenge = randomBytes(30).toString('base64url');
  const headers: Record<string, string> = { Accept: 'application/json', 'x-okta-verification-challenge': challenge };
  if (credential !== null) headers[OKTA_HEADER] = credential;
  return { sent: { method: 'GET', query: '', headers, body: '' }, challenge };
}

let lastChallenge: string | undefined;

export const oktaSender: SenderFixture = {
  name: 'okta',
  verification: { scheme: 'okta', header: OKTA_HEADER, secret: oktaSecret },
  body,
  triggerData: JSON.parse(body),
  signed: (body) => post(oktaSecret, body),
  signedWrongly: (body) => post(otherSecret, body),
  toleranceSeconds: null,
  handshake: {
    request() {
      const { sent, challenge } = oktaVerification();
      lastChallenge = challenge;
      return sent;
    },
    accepts(answer: Answer) {
      if (answer.status !== 200) throw new Error(`Okta takes only 200, got ${answer.status}`);
      if (!/^application\/json\b/.test(answer.headers['content-type'] ?? ''))
        throw new Error('Okta reads a JSON answer');
      const parsed: unknown = JSON.parse(answer.body);
      const verification =
        parsed !== null && typeof parsed === 'object' ? Reflect.get(parsed, 'verification') : undefined;
      if (verification === undefined || verification !== lastChallenge) {
        throw new Error('the answer does not give back the challenge as "verification"');
      }
    },
  },
};
