/**
 * A sender given `https://user:password@host/…`, as the tests play it: it sends `Authorization:
 * Basic base64(user:password)` (RFC 7617), as Node's own HTTP client does for such a URL (the unit
 * test checks that with `http.request`). Nothing is signed.
 */
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

export const USERNAME = 'robot-sender';
const password = madeSecret('basic-password', 32);
const otherPassword = madeSecret('basic-other-password', 32);

const body = JSON.stringify({ name: 'Ann', customer: { email: 'ann@example.com' }, total: 19.99 });

/** The header's value for the credentials. */
export const basicAuthorization = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;

const sign = (user: string, password: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json', Authorization: basicAuthorization(user, password) },
  body,
});

export const basicSender: SenderFixture = {
  name: 'basic',
  verification: { scheme: 'basic', username: USERNAME, secret: password },
  body,
  triggerData: JSON.parse(body),
  signed: (body) => sign(USERNAME, password, body),
  signedWrongly: (body) => sign(USERNAME, otherPassword, body),
  toleranceSeconds: null,
};
