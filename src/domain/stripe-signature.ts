/**
 * The payment provider's (Stripe's) webhook signature: header
 * `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>[,v1=...]`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'stripe-signature';
/** How far the signed timestamp may be from the moment the receiver got the request. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

type SignatureVerdict = { ok: true } | { ok: false; reason: string };

export function verifyStripeSignature(
  secret: string,
  header: string | undefined,
  rawBody: Buffer,
  receivedAtMs: number,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): SignatureVerdict {
  if (!header) return { ok: false, reason: 'missing Stripe-Signature header' };
  let timestamp: number | undefined;
  const candidates: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) candidates.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === undefined) return { ok: false, reason: 'no timestamp in Stripe-Signature header' };
  if (candidates.length === 0) return { ok: false, reason: 'no v1 signature in Stripe-Signature header' };
  if (Math.abs(receivedAtMs / 1000 - timestamp) > toleranceSeconds) {
    return { ok: false, reason: `timestamp outside the ${toleranceSeconds}-second tolerance` };
  }
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  // Compare with every candidate, so the time taken does not tell which one matched.
  const matched = candidates.reduce((found, c) => timingSafeEqual(c, expected) || found, false);
  return matched ? { ok: true } : { ok: false, reason: 'signature does not match the signing secret' };
}
