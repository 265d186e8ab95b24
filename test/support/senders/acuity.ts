/**
 * Acuity Scheduling as the tests play it. Acuity publishes no library that verifies: deliveries are
 * signed as its webhooks docs say, `X-Acuity-Signature: <base64 HMAC-SHA256 of the raw body>`, keyed
 * with the API key (the main admin's for webhooks set in Integrations; the creating user's for
 * webhooks made through the API) as text. The body is a form: `action`, `id`, `calendarID`,
 * `appointmentTypeID`. No signed time, no handshake, no event id.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

// The API key shown under Integrations → API (Acuity's "API Credentials").
const apiKey = madeSecret('acuity-api-key', 32);
const otherKey = madeSecret('acuity-other-key', 32);

const fields = { action: 'scheduled', id: '1234567890', calendarID: '5678901', appointmentTypeID: '3456789' };
const body = new URLSearchParams(fields).toString();

/** The `X-Acuity-Signature` of `body` under `key`. */
export const acuitySignature = (key: string, body: string | Buffer) =>
  createHmac('sha256', key).update(body).digest('base64');

const sign = (key: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Acuity-Signature': acuitySignature(key, body) },
  body,
});

export const acuitySender: SenderFixture = {
  name: 'acuity',
  verification: { scheme: 'acuity', secret: apiKey },
  body,
  triggerData: fields,
  signed: (body) => sign(apiKey, body),
  signedWrongly: (body) => sign(otherKey, body),
  toleranceSeconds: null,
};
