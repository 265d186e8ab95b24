/**
 * Discord (interactions and webhook events): `X-Signature-Ed25519`, the hex Ed25519 signature of
 * `X-Signature-Timestamp` + body, checked with the app's Public Key (hex of the raw 32-byte key)
 * by node:crypto; the timestamp (unix seconds) within the catalog's tolerance. A refusal is `401`
 * (the catalog's refusalStatus): Discord sends bad signatures on purpose and removes a URL that
 * takes them. No id is signed: deliveries are told apart by the body's digest.
 *
 * Handshakes (signed, looked at once `verify` passed):
 * - an interactions PING (`type` 1, no `event`) is answered `200` JSON `{"type":1}` (a PONG);
 * - a webhook events PING (`type` 0) is answered `204`, empty.
 * A webhook event (`type` 1 with an `event` object) is a delivery. Other interactions need an answer
 * of their own: they run as deliveries, and Discord shows the user that the app did not answer.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { headerValue } from '../headers';
import { SENDERS } from './catalog';
import {
  decodeDigest,
  fail,
  jsonObject,
  OK,
  outside,
  setting,
  unixSeconds,
  withinTolerance,
  type SenderCheck,
} from './check';

const TOLERANCE = SENDERS.discord.toleranceSeconds!;
/** An Ed25519 signature's length. */
const SIGNATURE_BYTES = 64;
/** The DER of an Ed25519 SubjectPublicKeyInfo up to its key (RFC 8410): the raw 32 bytes follow. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The Public Key as node:crypto reads it, or undefined when it is not 64 hex characters. */
function publicKeyOf(hex: string): KeyObject | undefined {
  const raw = decodeDigest(hex, 'hex', 32);
  if (!raw) return undefined;
  try {
    return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
  } catch {
    return undefined;
  }
}

export const discord: SenderCheck = {
  verify(v, { headers, body, receivedAtMs }) {
    const signature = headerValue(headers, 'x-signature-ed25519')?.trim();
    if (!signature) return fail('missing X-Signature-Ed25519 header');
    const text = headerValue(headers, 'x-signature-timestamp');
    if (!text) return fail('missing X-Signature-Timestamp header');
    const timestamp = unixSeconds(text);
    if (timestamp === undefined) return fail('malformed X-Signature-Timestamp header: expected unix seconds');
    if (!withinTolerance(timestamp, receivedAtMs, TOLERANCE)) return outside(TOLERANCE);
    const bytes = decodeDigest(signature, 'hex', SIGNATURE_BYTES);
    if (!bytes)
      return fail(`malformed X-Signature-Ed25519 header: expected a hex signature of ${SIGNATURE_BYTES} bytes`);
    const key = publicKeyOf(setting(v, 'publicKey'));
    if (!key) return fail('the Public Key is not an Ed25519 public key (64 hex characters)');
    try {
      const message = Buffer.concat([Buffer.from(text, 'utf8'), body]);
      if (verify(null, message, key, bytes)) return OK;
    } catch {
      // Not a signature node:crypto can check: the same as a wrong one.
    }
    return fail('X-Signature-Ed25519 does not verify with the Public Key');
  },
  handshake: {
    signed: true,
    of(_v, { body }) {
      const message = jsonObject(body);
      if (message?.type === 0) return { answer: { status: 204 } };
      if (message?.type === 1 && !Object.hasOwn(message, 'event')) {
        return { answer: { status: 200, contentType: 'application/json', body: JSON.stringify({ type: 1 }) } };
      }
      return null;
    },
  },
  headersRead: () => ['x-signature-ed25519', 'x-signature-timestamp'],
};
