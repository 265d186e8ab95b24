/**
 * HubSpot (signature v3): `X-HubSpot-Signature-v3: <base64 HMAC-SHA256 of method + URI + body +
 * X-HubSpot-Request-Timestamp>` under the app's client secret; the timestamp is in milliseconds and
 * within 5 minutes of arrival. The URI is the public URL the request was sent to, with the
 * characters HubSpot's docs list decoded (`%3A` `%2F` `%3F` `%40` `%21` `%24` `%27` `%28` `%29`
 * `%2A` `%2C` `%3B`), as HubSpot signs it. A delivery is a batch (a JSON array) of events. HubSpot
 * says `eventId` is not unique, so a batch is told apart by all that its events say but
 * `attemptNumber` (signed): HubSpot's own retry of a batch (the same events, `attemptNumber`
 * raised, signed again) is one delivery, and two batches whose events share ids but differ are two.
 */
import { parseJsonWithin } from '../../body-formats';
import { headerValue } from '../../headers';
import { DEDUP_PARSE_BYTES_SIGNED } from '../../limits';
import { SENDERS } from '../catalog';
import { digestHeader, fail, hmac, outside, setting, sha256Hex, withinTolerance, type SenderCheck } from '../parts';

const TOLERANCE = SENDERS.hubspot.toleranceSeconds!;

/** The percent-encoded characters HubSpot signs decoded. */
const DECODED: Readonly<Record<string, string>> = {
  '%3A': ':',
  '%2F': '/',
  '%3F': '?',
  '%40': '@',
  '%21': '!',
  '%24': '$',
  '%27': "'",
  '%28': '(',
  '%29': ')',
  '%2A': '*',
  '%2C': ',',
  '%3B': ';',
};

/** The URI as HubSpot signs it: the listed percent-encoded characters decoded (in one pass, either case). */
export const signedUri = (url: string) =>
  url.replace(/%(3A|2F|3F|40|21|24|27|28|29|2A|2C|3B)/gi, (encoded) => DECODED[encoded.toUpperCase()]);

/** Milliseconds since the epoch, as HubSpot sends its timestamp; undefined if malformed. */
const unixMilliseconds = (text: string) => (/^\d{1,15}$/.test(text) ? Number(text) : undefined);

export const hubspot: SenderCheck = {
  verify(v, { method, publicUrl, headers, body, receivedAtMs }) {
    if (!headerValue(headers, 'x-hubspot-signature-v3')) return fail('missing X-HubSpot-Signature-v3 header');
    const text = headerValue(headers, 'x-hubspot-request-timestamp');
    if (!text) return fail('missing X-HubSpot-Request-Timestamp header');
    const timestampMs = unixMilliseconds(text);
    if (timestampMs === undefined) {
      return fail('malformed X-HubSpot-Request-Timestamp header: expected unix milliseconds');
    }
    if (!withinTolerance(timestampMs / 1000, receivedAtMs, TOLERANCE)) return outside(TOLERANCE);
    const expected = hmac('sha256', setting(v, 'secret'), method, signedUri(publicUrl), body, text);
    return digestHeader(headers, 'X-HubSpot-Signature-v3', expected, 'base64');
  },
  /**
   * `events:<digest>` of the batch's events, each without `attemptNumber`, its fields in name order,
   * the events sorted; undefined unless the body is a non-empty array of events with ids.
   */
  deliveryId({ body }) {
    const events = parseJsonWithin(body, DEDUP_PARSE_BYTES_SIGNED);
    if (!Array.isArray(events) || events.length === 0) return undefined;
    const described: string[] = [];
    for (const event of events) {
      if (event === null || typeof event !== 'object' || Array.isArray(event)) return undefined;
      // Beyond 2^53 two ids could parse to one number: the body's digest tells such deliveries apart instead.
      if (typeof event.eventId !== 'number' || !Number.isSafeInteger(event.eventId)) return undefined;
      const fields = Object.entries(event).filter(([name]) => name !== 'attemptNumber');
      described.push(JSON.stringify(fields.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
    }
    return `events:${sha256Hex(described.sort().join('\n'))}`;
  },
  headersRead: () => ['x-hubspot-signature-v3', 'x-hubspot-request-timestamp'],
};
