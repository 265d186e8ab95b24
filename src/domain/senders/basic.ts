/**
 * HTTP Basic credentials (RFC 7617): `Authorization: Basic base64(<user name>:<password>)`, as a
 * sender given `https://user:password@host/…` sends it; the user name and the password are each
 * compared in constant time. The user name ends at the first colon (the password may hold
 * colons). Nothing is signed, so a delivery is told apart by its `Idempotency-Key`, else its
 * `webhook-id` header. `Authorization` is never kept with a delivery: it holds the password.
 */
import { headerValue } from '../headers';
import { fail, OK, sameText, setting, type SenderCheck } from './check';
import { ID_HEADERS, idHeader } from './header-token';

const MALFORMED = fail('malformed Authorization header: expected Basic base64(user name:password)');

export const basic: SenderCheck = {
  verify(v, { headers }) {
    const value = headerValue(headers, 'authorization');
    if (!value) return fail('missing Authorization header');
    const [scheme, credentials, ...rest] = value.trim().split(/ +/);
    if (scheme.toLowerCase() !== 'basic') return fail('Authorization header is not Basic credentials');
    if (!credentials || rest.length > 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(credentials) || credentials.length % 4) {
      return MALFORMED;
    }
    const decoded = Buffer.from(credentials, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return MALFORMED;
    // Both are compared, whatever the first gives.
    const user = sameText(decoded.slice(0, colon), setting(v, 'username'));
    const password = sameText(decoded.slice(colon + 1), setting(v, 'secret'));
    return user && password ? OK : fail('Authorization header: user name or password does not match');
  },
  deliveryId: ({ headers }) => idHeader(headers),
  headersRead: () => [...ID_HEADERS],
  credentialHeaders: () => ['authorization'],
};
