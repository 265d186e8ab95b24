/**
 * Zoom: `x-zm-signature: v0=<hex HMAC-SHA256 of "v0:{x-zm-request-timestamp}:{body}">` under the
 * Secret Token, the timestamp (unix seconds) within 5 minutes. Its handshake, `endpoint.url_validation`
 * (when the URL is validated, then every 72 hours), is signed the same way (Zoom's sample and its
 * Rivet library check it first): `payload.plainToken` is answered with JSON
 * `{ plainToken, encryptedToken }`, encryptedToken the hex HMAC-SHA256 of plainToken under the
 * Secret Token. Nothing signed tells deliveries apart but the body.
 */
import { headerValue } from '../headers';
import { SENDERS } from './catalog';
import {
  digestHeader,
  echoable,
  fail,
  hmac,
  jsonObject,
  outside,
  setting,
  unixSeconds,
  withinTolerance,
  type SenderCheck,
} from './check';

const TOLERANCE = SENDERS.zoom.toleranceSeconds!;

export const zoom: SenderCheck = {
  verify(v, { headers, body, receivedAtMs }) {
    if (!headerValue(headers, 'x-zm-signature')) return fail('missing x-zm-signature header');
    const text = headerValue(headers, 'x-zm-request-timestamp');
    if (!text) return fail('missing x-zm-request-timestamp header');
    const timestamp = unixSeconds(text);
    if (timestamp === undefined) return fail('malformed x-zm-request-timestamp header: expected unix seconds');
    if (!withinTolerance(timestamp, receivedAtMs, TOLERANCE)) return outside(TOLERANCE);
    const expected = hmac('sha256', setting(v, 'secret'), `v0:${text}:`, body);
    return digestHeader(headers, 'x-zm-signature', expected, 'hex', 'v0=');
  },
  handshake: {
    signed: true,
    of(v, { body }) {
      const message = jsonObject(body);
      if (message?.event !== 'endpoint.url_validation') return null;
      const payload = message.payload;
      const plainToken = echoable(
        payload && typeof payload === 'object' && 'plainToken' in payload && payload.plainToken,
      );
      if (!plainToken) return { refused: 'endpoint.url_validation without a payload.plainToken', status: 400 };
      const encryptedToken = hmac('sha256', setting(v, 'secret'), plainToken).toString('hex');
      return {
        answer: { status: 200, contentType: 'application/json', body: JSON.stringify({ plainToken, encryptedToken }) },
      };
    },
  },
  headersRead: () => ['x-zm-signature', 'x-zm-request-timestamp'],
};
