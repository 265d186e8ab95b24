/**
 * Sentry (integration platform) as the tests play it. Sentry publishes no library that verifies its
 * integration webhooks: deliveries are signed as Sentry's "Webhooks" page of the integration platform
 * describes, `Sentry-Hook-Signature: <hex HMAC-SHA256 of the JSON body>`, keyed with the integration's
 * Client Secret as text. `Sentry-Hook-Timestamp` (unix seconds) is sent but is not part of what is
 * signed, so no time is checked. `Request-ID` names the request. No handshake.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

// An integration's Client Secret as Sentry shows it: 64 hex characters.
const clientSecret = madeSecret('5e1c0d2b3a49', 64).replace(/[^0-9a-f]/g, 'f');
const otherSecret = madeSecret('0a1b2c3d4e5f', 64).replace(/[^0-9a-f]/g, 'e');

const event = {
  action: 'created',
  installation: { uuid: '7a485448-a9e2-4c85-8a3c-4f44175783c9' },
  data: {
    issue: {
      id: '1170820242',
      shortId: 'ROBOT-42',
      title: "TypeError: Cannot read properties of undefined (reading 'id')",
      culprit: 'app/robot.ts in run',
      level: 'error',
      status: 'unresolved',
      platform: 'javascript',
      project: { id: '1', name: 'robot', slug: 'robot', platform: 'node' },
      firstSeen: '2026-01-01T12:00:00.000000Z',
      lastSeen: '2026-01-01T12:00:00.000000Z',
      count: '1',
      userCount: 0,
      web_url: 'https://made-up.sentry.io/issues/1170820242/',
    },
  },
  actor: { type: 'application', id: 'sentry', name: 'Sentry' },
};
const body = JSON.stringify(event);

/** The `Sentry-Hook-Signature` of `body` under `key`. */
export const sentrySignature = (key: string, body: string | Buffer) =>
  createHmac('sha256', key).update(body).digest('hex');

function sign(key: string, body: string, at: Date): SentRequest {
  return {
    method: 'POST',
    query: '',
    headers: {
      'Content-Type': 'application/json',
      'Request-ID': '8c1f2b0a-0000-4000-8000-000000000001',
      'Sentry-Hook-Resource': 'issue',
      'Sentry-Hook-Timestamp': String(Math.floor(at.getTime() / 1000)),
      'Sentry-Hook-Signature': sentrySignature(key, body),
    },
    body,
  };
}

export const sentrySender: SenderFixture = {
  name: 'sentry',
  verification: { scheme: 'sentry', secret: clientSecret },
  body,
  triggerData: event,
  signed: (body, _url, at) => sign(clientSecret, body, at),
  signedWrongly: (body, _url, at) => sign(otherSecret, body, at),
  toleranceSeconds: null,
};
