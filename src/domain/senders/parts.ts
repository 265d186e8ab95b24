/**
 * What checking a sender's request means, and the pieces every family's check is built from. A
 * family's check (./families/, one file per family, made for each sender from its file in
 * ./catalog/) reads a request as it arrived — its method,
 * the public URL it was sent to, its headers and its exact raw body — and says:
 * - whether it is that sender's (`verify`): a refusal's reason names headers and rules only, never
 *   the secret, the body or a digest; digests are compared with timingSafeEqual after their format
 *   and length are checked (a digest's length is public);
 * - whether it is a handshake (`handshake`), the sender checking the URL, answered its own way and
 *   never run; a handshake the sender signs is only looked at once `verify` passed;
 * - the sender's own id of the delivery, when it signs one (`deliveryId`), which dedup keys on;
 * - which request headers are kept with each delivery (`headersRead`).
 * A header sent twice counts with its first value (src/domain/headers.ts).
 */
import { createHash, createHmac, createPublicKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { headerValue, type RequestHeaders } from '../headers';
import type { CustomVerification } from './catalog';
import type { DigestEncoding, SenderSettings } from './catalog/sender';
import type { JsonValue } from '../types';
import { parseJsonWithin } from '../body-formats';
import { DEDUP_PARSE_BYTES, DEDUP_PARSE_BYTES_SIGNED } from '../limits';

/** A request to a webhook URL as the receiver read it. */
export interface SenderRequest {
  method: string;
  /**
   * The URL the sender was given and signs (Twilio, HubSpot, Square): BASE_URL, the path and the
   * query as sent.
   */
  publicUrl: string;
  /** The query string's parameters. */
  query: URLSearchParams;
  /** Lower-case names, as Node gives them. */
  headers: RequestHeaders;
  /** The exact raw bytes (empty for a GET). */
  body: Buffer;
  receivedAtMs: number;
}

export type Verdict = { ok: true } | { ok: false; reason: string };

export type { SenderSettings } from './catalog/sender';

/** A signature check the receiver makes before a delivery starts: the payment provider's, or an app's sender's. */
export type SenderVerification = { scheme: 'stripe'; secret: string } | CustomVerification;

/** What a handshake is answered: a status, and a short body of a type that is never HTML. */
export interface HandshakeAnswer {
  status: 200 | 204;
  contentType?: 'text/plain' | 'application/json';
  body?: string;
  /** Headers of the answer (Asana's X-Hook-Secret echoed). */
  headers?: Record<string, string>;
}

export type Handshake =
  /** Answered; `learnedSecret` is a secret the sender gave, kept pending on the URL until an editor confirms it. */
  | { answer: HandshakeAnswer; learnedSecret?: string; note?: string }
  /** A handshake refused: answered `status`, recorded as rejected with the reason. */
  | { refused: string; status: 400 | 403 };

/** A handshake's check: what a request is, as a handshake, or null when it is none. */
export type HandshakeOf = (v: SenderSettings, req: SenderRequest) => Handshake | null;

export interface SenderCheck {
  verify(v: SenderSettings, req: SenderRequest): Verdict;
  /**
   * Whether the request is a handshake, and its answer; null when it is a delivery. `signed`: the
   * sender signs its handshake, so it is looked at only once `verify` passed; else before.
   */
  handshake?: { signed: boolean; of: HandshakeOf };
  /** The sender's own id of the delivery, from what it signed (or its id header where its credential is static). */
  deliveryId?(req: SenderRequest): string | undefined;
  /** The request headers kept with each delivery (lower-case). */
  headersRead(v: SenderSettings): string[];
  /**
   * Headers that carry the credential itself (lower-case): never kept with a delivery, whoever asks
   * for them (a trigger rule, the headers every delivery keeps).
   */
  credentialHeaders?(v: SenderSettings): string[];
  /**
   * The delivery's trigger data without the credential the sender carries inside its body
   * (Microsoft Graph's `clientState`): runs, the run history and later steps keep no credential.
   */
  triggerData?(data: JsonValue): JsonValue;
}

/** A sender's signed time is compared with the moment the request arrived, within its tolerance. */
export const OK: Verdict = { ok: true };
export const MISMATCH: Verdict = { ok: false, reason: 'signature does not match the signing secret' };
export const fail = (reason: string): Verdict => ({ ok: false, reason });
export const outside = (toleranceSeconds: number): Verdict =>
  fail(`timestamp outside the ${toleranceSeconds}-second tolerance`);

/** The setting a check cannot go without; the API refuses a verification without it, so its absence is a bug. */
export function setting(
  v: SenderSettings,
  name: 'secret' | 'verifyToken' | 'publicKey' | 'header' | 'username',
): string {
  const value = v[name];
  if (value === undefined) throw new Error(`a verification without its ${name}`);
  return value;
}

const DIGEST_PATTERNS: Record<DigestEncoding, RegExp> = {
  hex: /^[0-9a-fA-F]*$/,
  base64: /^[A-Za-z0-9+/]*={0,2}$/,
  base64url: /^[A-Za-z0-9_-]*$/,
};

/** The length of `length` bytes written in the encoding (base64 padded, base64url not). */
const writtenLength = (encoding: DigestEncoding, length: number) =>
  encoding === 'hex' ? length * 2 : encoding === 'base64' ? Math.ceil(length / 3) * 4 : Math.ceil((length * 4) / 3);

/** The digest's bytes if `text` is exactly `length` bytes in the encoding (hex in either case), else undefined. */
export function decodeDigest(text: string, encoding: DigestEncoding, length: number): Buffer | undefined {
  const pattern = DIGEST_PATTERNS[encoding];
  const size = writtenLength(encoding, length);
  if (text.length !== size || !pattern.test(text)) return undefined;
  const bytes = Buffer.from(text, encoding);
  return bytes.length === length ? bytes : undefined;
}

/** The DER of an Ed25519 SubjectPublicKeyInfo up to its key (RFC 8410): the raw 32 bytes follow. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** An Ed25519 public key from its raw 32 bytes, or undefined when node:crypto cannot read it as one. */
export function ed25519PublicKey(raw: Buffer): KeyObject | undefined {
  try {
    return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  } catch {
    return undefined;
  }
}

/** HMAC of the parts, in order. */
export function hmac(algorithm: string, key: string | Buffer, ...parts: Array<string | Buffer>): Buffer {
  const mac = createHmac(algorithm, key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

export const sha256Hex = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** Checks `<prefix><digest>` (a digest as given, not a header) against the expected digest. */
export function digestMatches(
  given: string,
  what: string,
  expected: Buffer,
  encoding: DigestEncoding,
  prefix = '',
): Verdict {
  const bytes = given.startsWith(prefix)
    ? decodeDigest(prefix ? given.slice(prefix.length) : given, encoding, expected.length)
    : undefined;
  if (bytes) return timingSafeEqual(bytes, expected) ? OK : MISMATCH;
  const shape = `${prefix ? `"${prefix}" + ` : ''}${encoding} digest of ${expected.length} bytes`;
  return fail(`malformed ${what}: expected ${shape}`);
}

/** Checks `<prefix><digest>` in a header against the expected digest. `name` is spelled as the docs spell it. */
export function digestHeader(
  headers: RequestHeaders,
  name: string,
  expected: Buffer,
  encoding: DigestEncoding,
  prefix = '',
): Verdict {
  const value = headerValue(headers, name)?.trim();
  if (!value) return fail(`missing ${name} header`);
  return digestMatches(value, `${name} header`, expected, encoding, prefix);
}

/**
 * Every digest given against every digest expected (one per key): any match passes, else a
 * mismatch, else the first malformation. Every pair is compared, whichever matches.
 */
export function anyDigestMatches(
  given: readonly string[],
  what: string,
  expected: readonly Buffer[],
  encoding: DigestEncoding,
  prefix = '',
): Verdict {
  if (given.length === 1 && expected.length === 1) return digestMatches(given[0], what, expected[0], encoding, prefix);
  const verdicts = given.flatMap((g) => expected.map((e) => digestMatches(g, what, e, encoding, prefix)));
  return verdicts.find((v) => v.ok) ?? verdicts.find((v) => v === MISMATCH) ?? verdicts[0] ?? MISMATCH;
}

/** Whether two texts are equal, in time that depends on neither (both are hashed first). */
export function sameText(given: string, expected: string): boolean {
  return timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
}

/** Whole seconds since the epoch, as a signed timestamp is sent; undefined if malformed. */
export function unixSeconds(text: string): number | undefined {
  return /^\d{1,12}$/.test(text) ? Number(text) : undefined;
}

/** Whether a signed time (in seconds) is within `toleranceSeconds` of the moment the request arrived. */
export function withinTolerance(timestampSeconds: number, receivedAtMs: number, toleranceSeconds: number): boolean {
  return Math.abs(receivedAtMs / 1000 - timestampSeconds) <= toleranceSeconds;
}

/** The longest challenge or token a handshake echoes; anything longer is not a handshake. */
export const HANDSHAKE_CHALLENGE_MAX_CHARS = 1024;

/**
 * The body as a JSON object, or undefined (not JSON, not an object, nested too deep, or over
 * DEDUP_PARSE_BYTES_SIGNED): for the senders whose handshake, id or credential is inside the body.
 * Never throws.
 */
export function jsonObject(body: Buffer): Record<string, unknown> | undefined {
  // A request's body is read by its handshake, its check and its id: parsed once.
  if (parsedBodies.has(body)) return parsedBodies.get(body);
  const value = parseJsonWithin(body, DEDUP_PARSE_BYTES_SIGNED);
  const object = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  parsedBodies.set(body, object);
  return object;
}
const parsedBodies = new WeakMap<Buffer, Record<string, unknown> | undefined>();

/**
 * A body read before its credential is checked (src/domain/limits/unsigned-parsing.ts): the
 * refusal of a body past DEDUP_PARSE_BYTES, undefined for one within it. The check that carries
 * its credential inside the body returns it before it parses anything.
 */
export function pastUnsignedParse(body: Buffer): Verdict | undefined {
  if (body.length <= DEDUP_PARSE_BYTES) return undefined;
  return fail(`a body of more than ${DEDUP_PARSE_BYTES} bytes, whose credential is inside it: not read`);
}

/**
 * jsonObject for a body read before anything is checked (an unsigned handshake's): undefined,
 * unparsed, past DEDUP_PARSE_BYTES.
 */
export function unsignedJsonObject(body: Buffer): Record<string, unknown> | undefined {
  return body.length <= DEDUP_PARSE_BYTES ? jsonObject(body) : undefined;
}

/** Whether the header carries the credential as it is (constant time): for a credential that is a static token. */
export function headerEquals(headers: RequestHeaders, name: string, expected: string, what: string): Verdict {
  const given = headerValue(headers, name);
  if (given === undefined) return fail(`missing ${name} header`);
  return sameText(given, expected) ? OK : fail(`${name} header does not equal the ${what}`);
}

/** The value at a dotted path of a parsed JSON object (`data.id`), or undefined. */
export function valueAt(object: Record<string, unknown> | undefined, path: string): unknown {
  let value: unknown = object;
  for (const key of path.split('.')) {
    value =
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)[key]
        : undefined;
  }
  return value;
}

/** A string of 1 to HANDSHAKE_CHALLENGE_MAX_CHARS characters, or undefined: what a handshake may echo. */
export function echoable(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= HANDSHAKE_CHALLENGE_MAX_CHARS
    ? value
    : undefined;
}

/** The request's headers, values as sent: for a sender's own library, which reads them itself. */
export const header = (req: SenderRequest, name: string) => headerValue(req.headers, name);
