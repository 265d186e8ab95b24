/**
 * SendGrid (Signed Event Webhook): `X-Twilio-Email-Event-Webhook-Signature`, the base64 DER ECDSA
 * (P-256, SHA-256) signature of `X-Twilio-Email-Event-Webhook-Timestamp` + body, checked by
 * node:crypto with the Verification Key the console shows (base64 of the key's SPKI DER); the
 * timestamp (unix seconds) within the catalog's tolerance (SendGrid's docs name none: the default
 * five minutes). A key node:crypto cannot read as a P-256 public key refuses every delivery with a
 * reason saying so. No id is signed: deliveries are told apart by the body's digest. No handshake.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { headerValue } from '../headers';
import { SENDERS } from './catalog';
import { fail, OK, outside, setting, unixSeconds, withinTolerance, type SenderCheck } from './check';

const TOLERANCE = SENDERS.sendgrid.toleranceSeconds!;
const SIGNATURE = 'X-Twilio-Email-Event-Webhook-Signature';
const TIMESTAMP = 'X-Twilio-Email-Event-Webhook-Timestamp';
/** Padded base64 of at most 72 bytes (a DER ECDSA P-256 signature's longest): 8 to 96 characters. */
const BASE64_SIGNATURE = /^(?:[A-Za-z0-9+/]{4}){1,23}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;

/** The Verification Key as node:crypto reads it, or undefined when it is not a base64 P-256 SPKI key. */
function publicKeyOf(base64: string): KeyObject | undefined {
  try {
    const key = createPublicKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: 'spki' });
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1' ? key : undefined;
  } catch {
    return undefined;
  }
}

export const sendgrid: SenderCheck = {
  verify(v, { headers, body, receivedAtMs }) {
    const signature = headerValue(headers, SIGNATURE)?.trim();
    if (!signature) return fail(`missing ${SIGNATURE} header`);
    const text = headerValue(headers, TIMESTAMP);
    if (!text) return fail(`missing ${TIMESTAMP} header`);
    const timestamp = unixSeconds(text);
    if (timestamp === undefined) return fail(`malformed ${TIMESTAMP} header: expected unix seconds`);
    if (!withinTolerance(timestamp, receivedAtMs, TOLERANCE)) return outside(TOLERANCE);
    if (!BASE64_SIGNATURE.test(signature)) {
      return fail(`malformed ${SIGNATURE} header: expected a base64 ECDSA signature`);
    }
    const key = publicKeyOf(setting(v, 'publicKey'));
    if (!key) return fail('the Verification Key is not a P-256 public key (the base64 the console shows)');
    try {
      const message = Buffer.concat([Buffer.from(text, 'utf8'), body]);
      if (verify('sha256', message, { key, dsaEncoding: 'der' }, Buffer.from(signature, 'base64'))) return OK;
    } catch {
      // Not a signature node:crypto can check: the same as a wrong one.
    }
    return fail(`${SIGNATURE} does not verify with the Verification Key`);
  },
  headersRead: () => [SIGNATURE.toLowerCase(), TIMESTAMP.toLowerCase()],
};
