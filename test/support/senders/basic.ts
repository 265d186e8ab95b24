/**
 * A sender given `https://user:password@host/…`, as the tests play it: it sends `Authorization:
 * Basic base64(user:password)` (RFC 7617), as Node's own HTTP client does for such a URL (the unit
 * test checks that with `http.request`). Nothing is signed.
 */
import type { SenderName } from '../../../src/domain/senders/catalog';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

export const USERNAME = 'robot-sender';

const body = JSON.stringify({ name: 'Ann', customer: { email: 'ann@example.com' }, total: 19.99 });

/** The header's value for the credentials. */
export const basicAuthorization = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;

/**
 * A sender that sends HTTP Basic credentials with a JSON event (`headers`: any others it sends); its
 * verification is the user name and the password, and another password is the wrong key.
 */
export function basicFixture(f: {
  name: SenderName;
  username: string;
  event: unknown;
  headers?: Record<string, string>;
}): SenderFixture {
  const password = madeSecret(`${f.name}-password`, 32);
  const sign = (secret: string, body: string): SentRequest => ({
    method: 'POST',
    query: '',
    headers: {
      'Content-Type': 'application/json',
      ...f.headers,
      Authorization: basicAuthorization(f.username, secret),
    },
    body,
  });
  const body = JSON.stringify(f.event);
  return {
    name: f.name,
    verification: { scheme: f.name, username: f.username, secret: password },
    body,
    triggerData: f.event,
    signed: (body) => sign(password, body),
    signedWrongly: (body) => sign(madeSecret(`${f.name}-other-password`, 32), body),
    toleranceSeconds: null,
  };
}

export const basicSender = basicFixture({ name: 'basic', username: USERNAME, event: JSON.parse(body) });
