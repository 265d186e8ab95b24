/**
 * Smartcar as the tests play it. Smartcar's library (`smartcar`, not installed here) has
 * `hashChallenge(amt, challenge)` = hex HMAC-SHA256 of the challenge keyed by the Application Management
 * Token, and `verifyPayload(amt, signature, body)` = the same HMAC of the body against `SC-Signature`; its
 * docs say the same (Callback URI Verification, Payload Verification). So: `SC-Signature: <hex
 * HMAC-SHA256 of the body>` under the AMT taken as text, no time signed. Setting up the webhook first POSTs
 * a `VERIFY` event whose `data.challenge` must be answered 200, `Content-Type: application/json`,
 * `{"challenge":"<hashChallenge(amt, challenge)>"}` within 15 s; whether that request carries
 * `SC-Signature` is not documented, so it is sent unsigned here (the answer itself needs the AMT). The
 * body's `eventId` (signed) names the event. Proved against the library's algorithm in a scratch check.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Answer, SenderFixture, SentRequest } from './fixture';

// An Application Management Token as the Dashboard shows it: a uuid.
const amt = randomUUID();
const otherAmt = randomUUID();

/** Smartcar's `hashChallenge`: hex HMAC-SHA256 of `text` keyed by the AMT. */
export const smartcarHash = (key: string, text: string | Buffer) =>
  createHmac('sha256', key).update(text).digest('hex');

const event = {
  eventId: '52f6e0bb-1369-45da-a61c-9e67d092d6dc',
  eventType: 'VEHICLE_STATE',
  vehicleId: 'ada8b6d1-ae6e-4f1f-a0d3-3c5f3e1d2a9b',
  data: {
    signals: [{ code: 'charge-ischarging', name: 'IsCharging', group: 'Charge', body: { value: true } }],
    user: { id: '93b3ee4a-7c3c-4e9c-9d66-0f0f5b1b4e1a' },
  },
  meta: {
    version: '4.0',
    webhookId: '5a8e5e38-1e12-4011-a36d-56f120053f9e',
    webhookName: 'Example Webhook',
    deliveryId: '5d569643-3a47-4cd1-a3ec-db5fc1f6f03b',
    deliveredAt: '2026-01-01T12:00:00.000Z',
  },
};
const body = JSON.stringify(event);

const sign = (key: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json', 'SC-Signature': smartcarHash(key, body) },
  body,
});

const challenge = randomBytes(16).toString('hex');
const verifyBody = JSON.stringify({
  eventId: '52f6e0bb-1369-45da-a61c-9e67d092d6db',
  eventType: 'VERIFY',
  data: { challenge },
  meta: {
    version: '4.0',
    webhookId: '5a8e5e38-1e12-4011-a36d-56f120053f9e',
    webhookName: 'Example Webhook',
    deliveryId: '5d569643-3a47-4cd1-a3ec-db5fc1f6f03a',
    deliveredAt: '2026-01-01T11:00:00.000Z',
  },
});

export const smartcarSender: SenderFixture = {
  name: 'smartcar',
  verification: { scheme: 'smartcar', secret: amt },
  body,
  triggerData: event,
  signed: (body) => sign(amt, body),
  signedWrongly: (body) => sign(otherAmt, body),
  toleranceSeconds: null,
  handshake: {
    request: () => ({ method: 'POST', query: '', headers: { 'Content-Type': 'application/json' }, body: verifyBody }),
    accepts(answer: Answer) {
      if (answer.status !== 200) throw new Error(`Smartcar wants 200 for VERIFY, got ${answer.status}`);
      if (!(answer.headers['content-type'] ?? '').startsWith('application/json')) {
        throw new Error(`Smartcar wants Content-Type application/json, got ${answer.headers['content-type']}`);
      }
      const parsed: unknown = JSON.parse(answer.body);
      const got = typeof parsed === 'object' && parsed !== null ? (parsed as { challenge?: unknown }).challenge : null;
      if (got !== smartcarHash(amt, challenge)) throw new Error(`Smartcar's challenge not answered: ${answer.body}`);
    },
  },
};
