/**
 * Xero as the tests play it. Xero's library (`xero-node`) has no webhook helper: deliveries are signed as
 * Xero's guide "Configuring your server" (developer.xero.com/documentation/webhooks/configuring-your-server)
 * says, `x-xero-signature: <base64 HMAC-SHA256 of the body>`, keyed with the app's Webhook key as text.
 * Its handshake is Intent to Receive: a series of POSTs with no events, some correctly signed (answered
 * 200 with no body) and some wrongly signed (answered 401); every answer within 5 s.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { madeSecret, type Answer, type SenderFixture, type SentRequest } from './fixture';

// A Webhook key looks like 88 characters of base64; it is used as it is, as text.
const webhookKey = Buffer.from(madeSecret('xero-webhook-key', 66)).toString('base64');
const otherKey = Buffer.from(madeSecret('xero-other-key', 66)).toString('base64');

const payload = {
  events: [
    {
      resourceUrl: 'https://api.xero.com/api.xro/2.0/Invoices/0d3b3ec4-0000-4000-8000-000000000001',
      resourceId: '0d3b3ec4-0000-4000-8000-000000000001',
      eventDateUtc: '2026-01-01T12:00:00.000',
      eventType: 'CREATE',
      eventCategory: 'INVOICE',
      tenantId: 'c2cc9b6e-0000-4000-8000-000000000002',
      tenantType: 'ORGANISATION',
    },
  ],
  firstEventSequence: 1,
  lastEventSequence: 1,
  entropy: 'MADEUPENTROPYVALUE01',
};
const body = JSON.stringify(payload);

/** The `x-xero-signature` of `body` under `key`. */
export const xeroSignature = (key: string, body: string | Buffer) =>
  createHmac('sha256', key).update(body).digest('base64');

const sign = (key: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'Content-Type': 'application/json', 'x-xero-signature': xeroSignature(key, body) },
  body,
});

/** An Intent to Receive request: no events, fresh entropy, signed with `key`. */
export function xeroIntentToReceive(key: string): SentRequest {
  const entropy = randomBytes(15).toString('base64url').toUpperCase();
  return sign(key, JSON.stringify({ events: [], firstEventSequence: 0, lastEventSequence: 0, entropy }));
}

export const xeroSender: SenderFixture = {
  name: 'xero',
  verification: { scheme: 'xero', secret: webhookKey },
  body,
  triggerData: payload,
  signed: (body) => sign(webhookKey, body),
  signedWrongly: (body) => sign(otherKey, body),
  toleranceSeconds: null,
  handshake: {
    // The correctly signed half of Intent to Receive; the wrongly signed half is `signedWrongly`, which
    // Xero requires to be answered 401 (the sender's refusal status).
    request: () => xeroIntentToReceive(webhookKey),
    accepts(answer: Answer) {
      if (answer.status !== 200) throw new Error(`Xero takes 200 for a correctly signed request, got ${answer.status}`);
      if (answer.body !== '') throw new Error('Xero asks for no body in the answer');
      if (answer.headers['set-cookie'] !== undefined) throw new Error('Xero asks for no cookies in the answer');
    },
  },
};
