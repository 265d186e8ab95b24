/**
 * The public-key family: the sender signs the time header's value and the body (`content`:
 * `{time}{body}`, or Telnyx's `{time}|{body}`) with its private key; the public key the person
 * pasted checks it, by node:crypto. ECDSA P-256 (SendGrid): a DER signature in base64, the key the
 * base64 of its SPKI DER. Ed25519 (Discord, Telnyx): a 64-byte signature and the raw 32-byte key,
 * both in the sender's encoding. The time (unix seconds) within the sender's tolerance. A key
 * node:crypto cannot read as the sender's kind refuses every delivery with a reason saying so; a
 * signature it cannot check is refused as a wrong one.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { headerValue } from '../../headers';
import type { PublicKeySignature } from '../catalog/sender';
import {
  decodeDigest,
  ed25519PublicKey,
  fail,
  OK,
  outside,
  setting,
  unixSeconds,
  withinTolerance,
  type SenderCheck,
} from '../parts';

/** An Ed25519 signature's length, and its key's. */
const ED25519_SIGNATURE_BYTES = 64;
const ED25519_KEY_BYTES = 32;
/** Padded base64 of at most 72 bytes (a DER ECDSA P-256 signature's longest): 8 to 96 characters. */
const BASE64_DER_SIGNATURE = /^(?:[A-Za-z0-9+/]{4}){1,23}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;

/** The public key as node:crypto reads it, or undefined when it is not of the signature's kind. */
function publicKeyOf(signature: PublicKeySignature, text: string): KeyObject | undefined {
  try {
    if (signature.algorithm === 'ecdsa-p256') {
      const key = createPublicKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'spki' });
      const curve = key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve;
      return curve === 'prime256v1' ? key : undefined;
    }
    const raw = decodeDigest(text, signature.encoding, ED25519_KEY_BYTES);
    return raw && ed25519PublicKey(raw);
  } catch {
    return undefined;
  }
}

/** The signature's bytes, or undefined when malformed. */
function signatureBytes(signature: PublicKeySignature, text: string): Buffer | undefined {
  if (signature.algorithm === 'ed25519') return decodeDigest(text, signature.encoding, ED25519_SIGNATURE_BYTES);
  return BASE64_DER_SIGNATURE.test(text) ? Buffer.from(text, 'base64') : undefined;
}

/** What the person pasted is called, and what a key of the sender's looks like. */
export interface PublicKeySender {
  toleranceSeconds: number | null;
  keyLabel: string;
}

export function publicKeyCheck(signature: PublicKeySignature, sender: PublicKeySender): SenderCheck {
  const { header, time } = signature;
  const tolerance = sender.toleranceSeconds ?? 0;
  const [before, after] = signature.content.split('{time}');
  const separator = after.replace('{body}', '');
  const kind = signature.algorithm === 'ed25519' ? 'an Ed25519' : 'a P-256';
  const shape =
    signature.algorithm === 'ecdsa-p256' || signature.encoding === 'base64'
      ? 'the base64 the console shows'
      : `${ED25519_KEY_BYTES * 2} hex characters`;
  const malformed =
    signature.algorithm === 'ed25519'
      ? `expected a ${signature.encoding} signature of ${ED25519_SIGNATURE_BYTES} bytes`
      : 'expected a base64 ECDSA signature';
  return {
    verify(v, { headers, body, receivedAtMs }) {
      const given = headerValue(headers, header)?.trim();
      if (!given) return fail(`missing ${header} header`);
      const text = headerValue(headers, time.header);
      if (!text) return fail(`missing ${time.header} header`);
      const timestamp = unixSeconds(text);
      if (timestamp === undefined) return fail(`malformed ${time.header} header: expected unix seconds`);
      if (!withinTolerance(timestamp, receivedAtMs, tolerance)) return outside(tolerance);
      const bytes = signatureBytes(signature, given);
      if (!bytes) return fail(`malformed ${header} header: ${malformed}`);
      const key = publicKeyOf(signature, setting(v, 'publicKey'));
      if (!key) return fail(`the ${sender.keyLabel} is not ${kind} public key (${shape})`);
      try {
        const message = Buffer.concat([Buffer.from(before + text + separator, 'utf8'), body]);
        const ok =
          signature.algorithm === 'ed25519'
            ? verify(null, message, key, bytes)
            : verify('sha256', message, { key, dsaEncoding: 'der' }, bytes);
        if (ok) return OK;
      } catch {
        // Not a signature node:crypto can check: the same as a wrong one.
      }
      return fail(`${header} does not verify with the ${sender.keyLabel}`);
    },
    headersRead: () => [header.toLowerCase(), time.header.toLowerCase()],
  };
}
