/**
 * Webflow as the tests play it (webhooks created through an OAuth app, the ones Webflow signs). Webflow's
 * library (`webflow-api`, `webhooks.verifySignature`) only verifies, so deliveries are signed by the
 * algorithm it checks and Webflow's "Working with webhooks" guide gives: `x-webflow-signature: <hex
 * HMAC-SHA256 of "<x-webflow-timestamp>:<body>">` under the app's client secret taken as text;
 * `x-webflow-timestamp` is unix ms, and the guide asks to refuse one older than 5 minutes (the library
 * checks no time). No handshake.
 */
import { createHmac } from 'node:crypto';
import { WebflowClient } from 'webflow-api';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

// An OAuth app's client secret is 64 hex characters.
const clientSecret = createHmac('sha256', madeSecret('webflow-client-secret')).digest('hex');
const otherSecret = createHmac('sha256', madeSecret('webflow-other-secret')).digest('hex');

const event = {
  triggerType: 'form_submission',
  payload: {
    name: 'Contact Us',
    siteId: '65427cf400e02b306eaa0001',
    data: { 'First Name': 'Ann', 'Last Name': 'Lee', email: 'ann@example.com' },
    submittedAt: '2026-01-01T12:00:00.000Z',
    id: '6321ca84df3949bfc6752001',
    formId: '65429eadebe8a9f3a30f0001',
    formElementId: '4e038d2c-6a1e-4953-7be9-a59a2b450001',
  },
};
const body = JSON.stringify(event);

/** The `x-webflow-signature` of `body` sent at `timestamp` (ms) under `secret`. */
export const webflowSignature = (secret: string, body: string | Buffer, timestamp: number) =>
  createHmac('sha256', secret).update(`${timestamp}:`).update(body).digest('hex');

function sign(secret: string, body: string, at: Date): SentRequest {
  const timestamp = at.getTime();
  return {
    method: 'POST',
    query: '',
    headers: {
      'content-type': 'application/json',
      'x-webflow-timestamp': String(timestamp),
      'x-webflow-signature': webflowSignature(secret, body, timestamp),
    },
    body,
  };
}

export const webflowSender: SenderFixture = {
  name: 'webflow',
  verification: { scheme: 'webflow', secret: clientSecret },
  body,
  triggerData: event,
  signed: (body, _url, at) => sign(clientSecret, body, at),
  signedWrongly: (body, _url, at) => sign(otherSecret, body, at),
  toleranceSeconds: 300,
  async sdkAccepts(sent) {
    const client = new WebflowClient({ accessToken: 'made-up-access-token' });
    const valid = await client.webhooks.verifySignature({
      headers: sent.headers,
      body: String(sent.body),
      secret: clientSecret,
    });
    if (!valid) throw new Error('webflow-api: the signature does not verify');
  },
};
