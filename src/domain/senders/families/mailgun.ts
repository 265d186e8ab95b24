/**
 * Mailgun: no header; the body carries `{ timestamp, token, signature }`, which signs itself:
 * `signature` is the hex HMAC-SHA256 of timestamp + token under the HTTP webhook signing key, the
 * timestamp (unix seconds) within 5 minutes of arrival. Webhooks send them as the JSON body's
 * `signature` object; routes (`forward()`) and the older form webhooks as top-level fields of a
 * urlencoded or multipart form. The rest of the body is not signed; a captured body sent again
 * with other contents is the same delivery: deliveries are told apart by the `token`. A JSON
 * signature is read from a body of at most DEDUP_PARSE_BYTES, a form's from at most
 * SIGNED_FORM_MAX_BYTES (src/domain/limits/unsigned-parsing.ts): a larger one is refused unparsed.
 */
import { headerValue, type RequestHeaders } from '../../headers';
import { SIGNED_FORM_MAX_BYTES } from '../../limits';
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

/** A multipart form's text field, by its name (the first part of that name), or undefined. */
function multipartField(text: string, name: string): string | undefined {
  const start = new RegExp(`\r\nContent-Disposition: form-data; name="${name}"\r\n(?:[^\r\n]+\r\n)*\r\n`, 'i');
  const found = start.exec(text);
  if (!found) return undefined;
  const from = found.index + found[0].length;
  const end = text.indexOf('\r\n--', from);
  return end < 0 ? undefined : text.slice(from, end);
}

/** The form's three fields (urlencoded or multipart, as its Content-Type says), or undefined past the bound. */
function formFields(body: Buffer, headers: RequestHeaders): Record<string, unknown> | undefined {
  if (body.length > SIGNED_FORM_MAX_BYTES) return undefined;
  const type = headerValue(headers, 'content-type')?.toLowerCase() ?? '';
  const names = ['timestamp', 'token', 'signature'];
  if (type.startsWith('multipart/form-data')) {
    const text = '\r\n' + body.toString('latin1');
    return Object.fromEntries(names.map((name) => [name, multipartField(text, name)]));
  }
  const form = new URLSearchParams(body.toString('utf8'));
  return Object.fromEntries(names.map((name) => [name, form.get(name) ?? undefined]));
}

/** Whether the body is JSON (a webhook's) rather than a form (a route's). */
const isJson = (body: Buffer) =>
  body.length > 0 && (body[0] === 0x7b || /^\s*\{/.test(body.subarray(0, 64).toString()));

/** The body's signature, `missing` when there is none, `malformed` when it is not of that shape. */
function signatureOf(body: Buffer, headers: RequestHeaders): MailgunSignature | 'missing' | 'malformed' {
  const given = isJson(body) ? jsonObject(body)?.signature : formFields(body, headers);
  if (given === null || typeof given !== 'object' || Array.isArray(given)) return 'missing';
  const { timestamp, token, signature } = given as Record<string, unknown>;
  if (timestamp === undefined && token === undefined && signature === undefined) return 'missing';
  // The timestamp is a string in Mailgun's JSON; a number is read as the digits it was signed as.
  const time = typeof timestamp === 'number' && Number.isSafeInteger(timestamp) ? String(timestamp) : timestamp;
  if (!nonEmpty(time) || !nonEmpty(token) || !nonEmpty(signature)) return 'malformed';
  return { timestamp: time, token, signature };
}

export const mailgun: SenderCheck = {
  verify(v, { body, headers, receivedAtMs }) {
    const json = isJson(body);
    const tooLarge = json ? pastUnsignedParse(body) : undefined;
    if (tooLarge) return tooLarge;
    if (!json && body.length > SIGNED_FORM_MAX_BYTES) {
      return fail(`a form body of more than ${SIGNED_FORM_MAX_BYTES} bytes, whose signature is inside it: not read`);
    }
    const given = signatureOf(body, headers);
    if (given === 'missing') {
      return fail(
        'missing signature in the body: expected {"signature": {timestamp, token, signature}}, or those form fields',
      );
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
  deliveryId({ body, headers }) {
    const given = signatureOf(body, headers);
    return typeof given === 'object' ? given.token : undefined;
  },
  headersRead: () => [],
};
