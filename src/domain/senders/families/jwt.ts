/**
 * The JWT family: the header carries a JSON Web Token (compact JWS, HS256) signed with the secret;
 * its signature is compared timing-safe, then its claims: `iat` (unix seconds) within the sender's
 * tolerance of the arrival, on either side, where the sender signs a time; `exp` not passed; `aud` the
 * public URL where the sender sets it (monday.com), `iss` where the sender names one, and where the
 * sender signs the body through a claim (Netlify's `sha256`), that claim the hex SHA-256 of the
 * exact raw body. A token without such a claim does not cover the body: its sender's file says
 * `signsPartOfBody`, and its deliveries are told apart by the body's digest. Only HS256 is taken
 * (a token naming `none` or another algorithm is refused), so the key cannot be read as anything else.
 */
import { headerValue } from '../../headers';
import type { JwtSignature } from '../catalog/sender';
import {
  decodeDigest,
  fail,
  hmac,
  MISMATCH,
  OK,
  outside,
  sameText,
  setting,
  sha256Hex,
  withinTolerance,
  type SenderCheck,
} from '../parts';
import { timingSafeEqual } from 'node:crypto';

/** A compact JWS: three base64url parts. */
const COMPACT = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;

const decoded = (part: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
};

export function jwtCheck(signature: JwtSignature, toleranceSeconds: number | null): SenderCheck {
  const { header } = signature;
  const malformed = fail(`malformed ${header} header: expected a JSON Web Token (HS256)`);
  return {
    verify(v, { headers, body, publicUrl, receivedAtMs }) {
      const token = headerValue(headers, header)
        ?.trim()
        .replace(/^Bearer\s+/i, '');
      if (!token) return fail(`missing ${header} header`);
      const parts = COMPACT.exec(token);
      if (!parts) return malformed;
      const [, head, payload, mac] = parts;
      if (decoded(head)?.alg !== 'HS256') return fail(`${header}: only HS256 tokens are taken`);
      const given = decodeDigest(mac, 'base64url', 32);
      if (!given) return malformed;
      if (!timingSafeEqual(given, hmac('sha256', setting(v, 'secret'), `${head}.${payload}`))) return MISMATCH;
      const claims = decoded(payload);
      if (!claims) return malformed;
      if (toleranceSeconds !== null) {
        if (typeof claims.iat !== 'number') return fail('token without an iat time');
        if (!withinTolerance(claims.iat, receivedAtMs, toleranceSeconds)) return outside(toleranceSeconds);
      }
      if (typeof claims.exp === 'number' && receivedAtMs / 1000 > claims.exp) return fail('token expired');
      if (signature.audience === 'url' && !(typeof claims.aud === 'string' && sameText(claims.aud, publicUrl))) {
        return fail('token audience is not this URL');
      }
      if (signature.issuer !== undefined && claims.iss !== signature.issuer) {
        return fail(`token issuer is not ${signature.issuer}`);
      }
      if (signature.bodyDigest !== undefined) {
        const digest = claims[signature.bodyDigest];
        if (typeof digest !== 'string' || !sameText(digest.toLowerCase(), sha256Hex(body))) {
          return fail(`token ${signature.bodyDigest} claim is not the body's digest`);
        }
      }
      return OK;
    },
    headersRead: () => [],
    // A token is a bearer credential until it expires: never kept with a delivery.
    credentialHeaders: () => [header.toLowerCase()],
  };
}
