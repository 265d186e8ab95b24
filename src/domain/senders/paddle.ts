/**
 * Paddle (Billing): `Paddle-Signature: ts=<unix seconds>;h1=<hex HMAC-SHA256 of "<ts>:<body>">` under
 * the notification destination's secret key. While a secret key is being rotated the header carries
 * one `h1` per key: every one is compared and any may match. ts within 5 seconds of arrival, as
 * Paddle's SDK checks (`WebhooksValidator.MAX_VALID_TIME_DIFFERENCE`). Deliveries are told apart by
 * the body's `notification_id` (signed; the same for every attempt of a notification).
 */
import { headerValue } from '../headers';
import { SENDERS } from './catalog';
import {
  digestMatches,
  fail,
  hmac,
  jsonObject,
  MISMATCH,
  outside,
  setting,
  unixSeconds,
  withinTolerance,
  type SenderCheck,
  type Verdict,
} from './check';

const TOLERANCE = SENDERS.paddle.toleranceSeconds!;
const MALFORMED = fail('malformed Paddle-Signature header: expected ts=<unix seconds>;h1=<hex digest>');

/** Its `ts` and every `h1`, or undefined when either is missing. */
function parse(value: string): { ts: string; h1: string[] } | undefined {
  let ts: string | undefined;
  const h1: string[] = [];
  for (const part of value.split(';')) {
    const at = part.indexOf('=');
    const key = part.slice(0, at).trim();
    const text = part.slice(at + 1).trim();
    if (at < 0 || !text) continue;
    if (key === 'ts') ts = text;
    else if (key === 'h1') h1.push(text);
  }
  return ts !== undefined && h1.length > 0 ? { ts, h1 } : undefined;
}

/** Every digest is compared; the first that matches passes, else a mismatch, else the first malformation. */
function anyMatches(digests: string[], expected: Buffer): Verdict {
  const verdicts = digests.map((d) => digestMatches(d, 'Paddle-Signature h1', expected, 'hex'));
  return verdicts.find((v) => v.ok) ?? verdicts.find((v) => v === MISMATCH) ?? verdicts[0];
}

export const paddle: SenderCheck = {
  verify(v, { headers, body, receivedAtMs }) {
    const value = headerValue(headers, 'paddle-signature');
    if (!value) return fail('missing Paddle-Signature header');
    const parts = parse(value);
    if (!parts) return MALFORMED;
    const timestamp = unixSeconds(parts.ts);
    if (timestamp === undefined) return MALFORMED;
    if (!withinTolerance(timestamp, receivedAtMs, TOLERANCE)) return outside(TOLERANCE);
    return anyMatches(parts.h1, hmac('sha256', setting(v, 'secret'), `${parts.ts}:`, body));
  },
  deliveryId({ body }) {
    const id = jsonObject(body)?.notification_id;
    return typeof id === 'string' && id.length > 0 ? id : undefined;
  },
  headersRead: () => ['paddle-signature'],
};
