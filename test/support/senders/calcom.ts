/**
 * Cal.com as the tests play it. Cal.com publishes no library that verifies its webhooks: deliveries are
 * signed as its own sender does (calcom/cal.com, packages/features/webhooks/lib/sendPayload.ts,
 * `createWebhookSignature`): `X-Cal-Signature-256: <hex HMAC-SHA256 of the body>`, keyed with the
 * webhook's Secret as text (a webhook saved without a secret sends the literal `no-secret-provided`).
 * The default body is `{triggerEvent, createdAt, payload}` as JSON. No signed time, no handshake.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const secret = madeSecret('calcom-webhook-secret', 32);
const otherSecret = madeSecret('calcom-other-secret', 32);

const event = {
  triggerEvent: 'BOOKING_CREATED',
  createdAt: '2026-01-01T12:00:00.000Z',
  payload: {
    type: '30min',
    title: '30 Min Meeting between Bo and Ann',
    startTime: '2026-01-05T09:00:00Z',
    endTime: '2026-01-05T09:30:00Z',
    organizer: { name: 'Bo', email: 'bo@example.com', timeZone: 'Europe/London', language: { locale: 'en' } },
    attendees: [{ name: 'Ann', email: 'ann@example.com', timeZone: 'Europe/Paris', language: { locale: 'en' } }],
    uid: 'bFJeNb2uX8ANpT3JL5EfXw',
    bookingId: 91,
    status: 'ACCEPTED',
  },
};
const body = JSON.stringify(event);

/** The `X-Cal-Signature-256` of `body` under `key`. */
export const calcomSignature = (key: string, body: string | Buffer) =>
  createHmac('sha256', key).update(body).digest('hex');

const sign = (key: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json', 'X-Cal-Signature-256': calcomSignature(key, body) },
  body,
});

export const calcomSender: SenderFixture = {
  name: 'calcom',
  verification: { scheme: 'calcom', secret },
  body,
  triggerData: event,
  signed: (body) => sign(secret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
};
