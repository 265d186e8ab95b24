/**
 * Slack: `X-Slack-Signature: v0=<hex HMAC-SHA256 of "v0:<X-Slack-Request-Timestamp>:<body>">`, the
 * timestamp within 5 minutes. The Events API's `url_verification` (signed) is answered with its
 * challenge. Interactivity (`payload=<JSON>`) and slash commands (form fields) are read as objects
 * on a json app (src/domain/form-bodies.ts).
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

const TOLERANCE = SENDERS.slack.toleranceSeconds!;

export const slack: SenderCheck = {
  verify(v, { headers, body, receivedAtMs }) {
    if (!headerValue(headers, 'x-slack-signature')) return fail('missing X-Slack-Signature header');
    const text = headerValue(headers, 'x-slack-request-timestamp');
    if (!text) return fail('missing X-Slack-Request-Timestamp header');
    const timestamp = unixSeconds(text);
    if (timestamp === undefined) return fail('malformed X-Slack-Request-Timestamp header: expected unix seconds');
    if (!withinTolerance(timestamp, receivedAtMs, TOLERANCE)) return outside(TOLERANCE);
    const expected = hmac('sha256', setting(v, 'secret'), `v0:${text}:`, body);
    return digestHeader(headers, 'X-Slack-Signature', expected, 'hex', 'v0=');
  },
  handshake: {
    signed: true,
    of(_v, { body }) {
      const message = jsonObject(body);
      const challenge = echoable(message?.challenge);
      if (message?.type !== 'url_verification' || !challenge) return null;
      return { answer: { status: 200, contentType: 'text/plain', body: challenge } };
    },
  },
  headersRead: () => ['x-slack-signature', 'x-slack-request-timestamp'],
};
