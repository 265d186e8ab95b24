/**
 * Zoom as the tests play it, by its published algorithm (Zoom's Rivet library verifies and answers
 * but does not sign; test/unit/senders/zoom.test.ts checks these requests and our answers against
 * it): `x-zm-signature: v0=<hex HMAC-SHA256 of "v0:{timestamp}:{body}">` under the Secret Token; the
 * handshake is a signed `endpoint.url_validation`, whose answer Zoom checks is `{ plainToken,
 * encryptedToken }` with encryptedToken the hex HMAC-SHA256 of plainToken.
 */
import { createHmac } from 'node:crypto';
import { SENDERS } from '../../../src/domain/senders/catalog';
import { madeSecret, type Answer, type SenderFixture, type SentRequest } from './fixture';

export const zoomSecretToken = madeSecret('zoom-secret-token', 22);
const otherToken = madeSecret('zoom-other-token', 22);
export const zoomPlainToken = 'made-up-plain-token-1';

const event = {
  event: 'meeting.started',
  event_ts: 1700000000000,
  payload: {
    account_id: 'account-1',
    object: { id: '85000000001', uuid: 'meeting-uuid-1==', host_id: 'host-1', topic: 'Standup ✓', type: 2 },
  },
};

/** A body signed under `secret` at `at`, as Zoom sends it. */
export function zoomSigned(secret: string, body: string, at: Date): SentRequest {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const digest = createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex');
  return {
    method: 'POST',
    query: '',
    headers: {
      'Content-Type': 'application/json',
      'x-zm-request-timestamp': timestamp,
      'x-zm-signature': `v0=${digest}`,
    },
    body,
  };
}

/** The url_validation body Zoom sends (its plainToken made up here). */
export const zoomValidationBody = (at: Date, plainToken = zoomPlainToken) =>
  JSON.stringify({ payload: { plainToken }, event_ts: at.getTime(), event: 'endpoint.url_validation' });

export const zoomSender: SenderFixture = {
  name: 'zoom',
  verification: { scheme: 'zoom', secret: zoomSecretToken },
  body: JSON.stringify(event),
  triggerData: event,
  signed: (body, _url, at) => zoomSigned(zoomSecretToken, body, at),
  signedWrongly: (body, _url, at) => zoomSigned(otherToken, body, at),
  toleranceSeconds: SENDERS.zoom.toleranceSeconds,
  handshake: {
    request: (_url, at) => zoomSigned(zoomSecretToken, zoomValidationBody(at), at),
    // Zoom's documented check: a 200 JSON answer with the plainToken and its HMAC under the Secret Token.
    accepts(answer: Answer) {
      if (answer.status !== 200) throw new Error(`Zoom expects 200, got ${answer.status}`);
      if (!answer.headers['content-type']?.startsWith('application/json')) {
        throw new Error(`Zoom expects JSON, got ${answer.headers['content-type']}`);
      }
      const given = JSON.parse(answer.body) as { plainToken?: unknown; encryptedToken?: unknown };
      const encryptedToken = createHmac('sha256', zoomSecretToken).update(zoomPlainToken).digest('hex');
      if (given.plainToken !== zoomPlainToken || given.encryptedToken !== encryptedToken) {
        throw new Error(`Zoom expects the plainToken and its encryptedToken, got ${answer.body}`);
      }
    },
  },
};
