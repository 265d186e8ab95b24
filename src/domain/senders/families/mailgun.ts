/**
 * Mailgun: no header; the JSON body's `signature` object `{ timestamp, token, signature }` signs
 * itself: `signature` is the hex HMAC-SHA256 of timestamp + token under the HTTP webhook signing
 * key, the timestamp (unix seconds) within 5 minutes of arrival. The body's `event-data` is not
 * signed; a captured body sent again with other event data is the same delivery: deliveries are
 * told apart by the signature's `token`. The signature is read from a body of at most
 * DEDUP_PARSE_BYTES (src/domain/limits/unsigned-parsing.ts): a larger one is refused unparsed.
 */
import { SENDERS } from '../catalog';
import {
  digestMatches,
  fail,
  hmac,
  jsonObject,
  outside,
  pastUnsignedParse,
  setting,
  unixSeconds,
  withinTolerance,
  type SenderCheck,
} from '../parts';

const TOLERANCE = SENDERS.mailgun.toleranceSeconds!;

interface MailgunSignature {
  timestamp: string;
  token: string;
  signature: string;
}

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/** The body's signature object, `missing` when there is none, `malformed` when it is not of that shape. */
function signatureOf(body: Buffer): MailgunSignature | 'missing' | 'malformed' {
  const given = jsonObject(body)?.signature;
  if (given === null || typeof given !== 'object' || Array.isArray(given)) return 'missing';
  const { timestamp, token, signature } = given as Record<string, unknown>;
  // The timestamp is a string in Mailgun's JSON; a number is read as the digits it was signed as.
  const time = typeof timestamp === 'number' && Number.isSafeInteger(timestamp) ? String(timestamp) : timestamp;
  if (!nonEmpty(time) || !nonEmpty(token) || !nonEmpty(signature)) return 'malformed';
  return { timestamp: time, token, signature };
}

export const mailgun: SenderCheck = {
  verify(v, { body, receivedAtMs }) {
    const tooLarge = pastUnsignedParse(body);
    if (tooLarge) return tooLarge;
    const given = signatureOf(body);
    if (given === 'missing') {
      return fail('missing signature object in the JSON body: expected {"signature": {timestamp, token, signature}}');
    }
    if (given === 'malformed') {
      return fail('malformed signature object in the body: expected timestamp, token and signature strings');
    }
    const timestamp = unixSeconds(given.timestamp);
    if (timestamp === undefined) return fail('malformed signature.timestamp in the body: expected unix seconds');
    if (!withinTolerance(timestamp, receivedAtMs, TOLERANCE)) return outside(TOLERANCE);
    const expected = hmac('sha256', setting(v, 'secret'), given.timestamp, given.token);
    return digestMatches(given.signature, 'signature.signature in the body', expected, 'hex');
  },
  deliveryId({ body }) {
    const given = signatureOf(body);
    return typeof given === 'object' ? given.token : undefined;
  },
  headersRead: () => [],
};
