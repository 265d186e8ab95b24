/**
 * Calendly: `Calendly-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` under
 * the subscription's webhook signing key, t within 3 minutes of arrival (Calendly's docs). Every
 * `v1` given is compared and any may match. Calendly signs no delivery id: its deliveries are told
 * apart by the body's digest.
 */
import { headerValue } from '../headers';
import { SENDERS } from './catalog';
import {
  digestMatches,
  fail,
  hmac,
  MISMATCH,
  outside,
  setting,
  unixSeconds,
  withinTolerance,
  type SenderCheck,
  type Verdict,
} from './check';

const TOLERANCE = SENDERS.calendly.toleranceSeconds!;
const MALFORMED = fail('malformed Calendly-Webhook-Signature header: expected t=<unix seconds>,v1=<hex digest>');

/** Its `t` and every `v1`, or undefined when either is missing. */
function parse(value: string): { t: string; v1: string[] } | undefined {
  let t: string | undefined;
  const v1: string[] = [];
  for (const part of value.split(',')) {
    const at = part.indexOf('=');
    const key = part.slice(0, at).trim();
    const text = part.slice(at + 1).trim();
    if (at < 0 || !text) continue;
    if (key === 't') t = text;
    else if (key === 'v1') v1.push(text);
  }
  return t !== undefined && v1.length > 0 ? { t, v1 } : undefined;
}

/** Every digest is compared; the first that matches passes, else a mismatch, else the first malformation. */
function anyMatches(digests: string[], expected: Buffer): Verdict {
  const verdicts = digests.map((d) => digestMatches(d, 'Calendly-Webhook-Signature v1', expected, 'hex'));
  return verdicts.find((v) => v.ok) ?? verdicts.find((v) => v === MISMATCH) ?? verdicts[0];
}

export const calendly: SenderCheck = {
  verify(v, { headers, body, receivedAtMs }) {
    const value = headerValue(headers, 'calendly-webhook-signature');
    if (!value) return fail('missing Calendly-Webhook-Signature header');
    const parts = parse(value);
    if (!parts) return MALFORMED;
    const timestamp = unixSeconds(parts.t);
    if (timestamp === undefined) return MALFORMED;
    if (!withinTolerance(timestamp, receivedAtMs, TOLERANCE)) return outside(TOLERANCE);
    return anyMatches(parts.v1, hmac('sha256', setting(v, 'secret'), `${parts.t}.`, body));
  },
  headersRead: () => ['calendly-webhook-signature'],
};
