/**
 * Twilio: `X-Twilio-Signature: <base64 HMAC-SHA1 of the signed string>` under the Auth Token. The
 * signed string is the URL Twilio requested (BASE_URL + path + query as sent) followed, for a form
 * body, by every parameter's name and value, names sorted (a name sent twice: its distinct values
 * sorted, each after the name, as Twilio's own validateRequest reads them). A JSON body is signed
 * through the URL: its `bodySHA256` query parameter is the hex SHA-256 of the body, and the
 * signature covers the URL alone. As Twilio's validateRequest does, the URL is checked as sent
 * with and without its port (443 for https, 80 for http, when it names none), then as the WHATWG
 * URL parser writes it, with and without the port, each also with its query re-encoded the way
 * Node's querystring writes it (for back ends that signed an escaped form of a value). A request
 * that a Webhooks Rule signs with a SharedKey says so in `X-Twilio-Webhooks-Signature-Settings`
 * (`algorithm=HMAC_SHA256`): its digest is HMAC-SHA256 of the same string, under the secret here.
 * No handshake. A form body of more than SIGNED_FORM_MAX_BYTES or FORM_MAX_FIELDS fields is
 * refused before it is decoded (src/domain/limits/unsigned-parsing.ts; the form format reads no
 * more fields). A
 * delivery is told apart by the digest of its signed parameters, not its bytes: the same parameters
 * in another order, or spelled `+` for `%20`, verify alike and are the same delivery.
 */
import { timingSafeEqual } from 'node:crypto';
import { parse, stringify } from 'node:querystring';
import { headerValue } from '../../headers';
import { FORM_MAX_FIELDS, SIGNED_FORM_MAX_BYTES } from '../../limits';
import { decodeDigest, digestMatches, fail, hmac, MISMATCH, OK, setting, sha256Hex, type SenderCheck } from '../parts';

const SIGNATURE = 'X-Twilio-Signature';
const SETTINGS = 'X-Twilio-Webhooks-Signature-Settings';
/** Twilio's algorithm names, as its settings header gives them, and their digests. */
const ALGORITHMS = new Map([
  ['HMAC_SHA1', { hash: 'sha1', bytes: 20 }],
  ['HMAC_SHA256', { hash: 'sha256', bytes: 32 }],
]);

/** The `algorithm=` of the settings header (HMAC_SHA1 without one), upper-cased. */
function algorithmOf(settings: string | undefined): string {
  for (const part of (settings ?? '').split(',')) {
    const [name, value] = part.split('=', 2).map((s) => s.trim());
    if (name === 'algorithm' && value) return value.toUpperCase();
  }
  return 'HMAC_SHA1';
}

/** A URL without its port, and with its default port when it names none (a URL with another port: as is). */
function withAndWithoutPort(url: string): string[] {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/is.exec(url);
  if (!match) return [url];
  const [, scheme, authority, rest] = match;
  const userInfo = authority.slice(0, authority.lastIndexOf('@') + 1);
  const hostAndPort = authority.slice(userInfo.length);
  // A colon starts the port only after an IPv6 literal's closing bracket.
  const colon = hostAndPort.indexOf(':', hostAndPort.lastIndexOf(']') + 1);
  const host = colon === -1 ? hostAndPort : hostAndPort.slice(0, colon);
  const defaultPort = scheme.toLowerCase() === 'https://' ? ':443' : ':80';
  return [scheme + userInfo + host + rest, colon === -1 ? scheme + userInfo + host + defaultPort + rest : url];
}

/** The URL with its query parsed and written again by Node's querystring (Twilio's legacy form). */
function withLegacyQuery(url: string): string {
  const at = url.indexOf('?');
  if (at === -1 || at === url.length - 1) return url;
  return url.slice(0, at) + '?' + stringify(parse(url.slice(at + 1)));
}

/** Every URL Twilio's validateRequest would take the signature to be of. */
function signedUrls(publicUrl: string): string[] {
  const urls = withAndWithoutPort(publicUrl);
  try {
    const normalized = withAndWithoutPort(new URL(publicUrl).toString());
    urls.push(...normalized, ...normalized.map(withLegacyQuery));
  } catch {
    // Not a URL the parser reads: only the URL as sent.
  }
  return [...new Set(urls)];
}

/** Whether a form body has more than FORM_MAX_FIELDS fields, counted by its `&` bytes, before it is decoded. */
function tooManyFields(body: Buffer): boolean {
  let fields = 1;
  for (let at = body.indexOf(0x26); at !== -1; at = body.indexOf(0x26, at + 1))
    if (++fields > FORM_MAX_FIELDS) return true;
  return false;
}

/** The form parameters as Twilio signs them: names sorted, each with its distinct values sorted. */
function signedParams(body: Buffer): string {
  const values = new Map<string, Set<string>>();
  for (const [name, value] of new URLSearchParams(body.toString('utf8'))) {
    const seen = values.get(name) ?? new Set<string>();
    values.set(name, seen.add(value));
  }
  let signed = '';
  for (const name of [...values.keys()].sort()) {
    for (const value of [...values.get(name)!].sort()) signed += name + value;
  }
  return signed;
}

export const twilio: SenderCheck = {
  verify(v, { publicUrl, query, headers, body }) {
    const given = headerValue(headers, SIGNATURE)?.trim();
    if (!given) return fail(`missing ${SIGNATURE} header`);
    const algorithm = ALGORITHMS.get(algorithmOf(headerValue(headers, SETTINGS)));
    if (!algorithm) return fail(`unsupported algorithm in ${SETTINGS} header: expected HMAC_SHA1 or HMAC_SHA256`);
    const digest = decodeDigest(given, 'base64', algorithm.bytes);
    if (!digest) return fail(`malformed ${SIGNATURE} header: expected base64 digest of ${algorithm.bytes} bytes`);
    const bodyHash = query.get('bodySHA256');
    if (bodyHash === null && body.length > SIGNED_FORM_MAX_BYTES) {
      return fail(`a form of more than ${SIGNED_FORM_MAX_BYTES} bytes: not read`);
    }
    if (bodyHash === null && tooManyFields(body)) return fail(`a form of more than ${FORM_MAX_FIELDS} fields`);
    // A JSON body: the URL (with its bodySHA256) is signed alone; a form body: the URL and its parameters.
    const params = bodyHash === null ? signedParams(body) : '';
    const secret = setting(v, 'secret');
    const signed = signedUrls(publicUrl).some((url) =>
      timingSafeEqual(hmac(algorithm.hash, secret, url, params), digest),
    );
    if (!signed) return MISMATCH;
    if (bodyHash === null) return OK;
    const verdict = digestMatches(bodyHash, 'bodySHA256 query parameter', Buffer.from(sha256Hex(body), 'hex'), 'hex');
    return verdict === MISMATCH ? fail('bodySHA256 query parameter does not match the body') : verdict;
  },
  // Once verified: a form's signed parameters (within FORM_MAX_FIELDS); a JSON body's digest is its key anyway.
  deliveryId: ({ query, body }) => (query.has('bodySHA256') ? undefined : `params:${sha256Hex(signedParams(body))}`),
  headersRead: () => ['x-twilio-signature', 'x-twilio-webhooks-signature-settings', 'i-twilio-idempotency-token'],
};
