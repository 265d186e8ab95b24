/**
 * The static family: nothing is signed; the sender sends a credential as it is, and it must equal
 * what the person gave (constant time). Either a header the sender's file names (or the person
 * names, or a default) carries the secret, or `Authorization: Basic` carries a user name and a
 * password (RFC 7617: the user name ends at the first colon; both are compared, whatever the first
 * gives). The header carrying the credential is never kept with a delivery: its value is the secret.
 * A static credential makes an id header as trustworthy as the rest of the request: such senders
 * may name id headers (../catalog/sender.ts, `deliveryId`).
 */
import { headerValue } from '../../headers';
import type { StaticCredential } from '../catalog/sender';
import { fail, headerEquals, OK, sameText, setting, type SenderCheck, type SenderSettings } from '../parts';

const MALFORMED_BASIC = fail('malformed Authorization header: expected Basic base64(user name:password)');

const basic: SenderCheck = {
  verify(v, { headers }) {
    const value = headerValue(headers, 'authorization');
    if (!value) return fail('missing Authorization header');
    const [scheme, credentials, ...rest] = value.trim().split(/ +/);
    if (scheme.toLowerCase() !== 'basic') return fail('Authorization header is not Basic credentials');
    if (!credentials || rest.length > 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(credentials) || credentials.length % 4) {
      return MALFORMED_BASIC;
    }
    const decoded = Buffer.from(credentials, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return MALFORMED_BASIC;
    const user = sameText(decoded.slice(0, colon), setting(v, 'username'));
    const password = sameText(decoded.slice(colon + 1), setting(v, 'secret'));
    return user && password ? OK : fail('Authorization header: user name or password does not match');
  },
  headersRead: () => [],
  credentialHeaders: () => ['authorization'],
};

/** `secretLabel`: what the sender's console calls the secret, for a refusal's reason. */
export function staticCheck(credential: StaticCredential, secretLabel: string): SenderCheck {
  if (credential.family === 'basic') return basic;
  const { header } = credential;
  const nameOf = (v: SenderSettings) =>
    typeof header === 'string' ? header : (v.header ?? header.default ?? setting(v, 'header'));
  return {
    verify: (v, { headers }) => headerEquals(headers, nameOf(v), setting(v, 'secret'), secretLabel),
    headersRead: () => [],
    credentialHeaders: (v) => [nameOf(v).toLowerCase()],
  };
}
