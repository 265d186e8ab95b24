/**
 * PandaDoc as the tests play it. PandaDoc's library does not verify webhooks: deliveries are signed as its
 * guide "How to Verify Webhook Authenticity" (developers.pandadoc.com/docs/webhook-verification) says,
 * not in a header but in the URL: `?signature=<hex HMAC-SHA256 of the body>`, keyed with the webhook
 * subscription's Shared key as text. The body is a JSON array of events. No handshake.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const sharedKey = madeSecret('pandadoc-shared-key', 36);
const otherKey = madeSecret('pandadoc-other-key', 36);

const events = [
  {
    event: 'document_state_changed',
    data: {
      id: 'madeUpDocument0001',
      name: 'Quote for Ann',
      status: 'document.completed',
      date_created: '2026-01-01T11:00:00.000000Z',
      date_modified: '2026-01-01T12:00:00.000000Z',
      recipients: [{ email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee', has_completed: true }],
      metadata: {},
    },
  },
];
const body = JSON.stringify(events);

/** The `signature` query value for `body` under `key`. */
export const pandadocSignature = (key: string, body: string | Buffer) =>
  createHmac('sha256', key).update(body).digest('hex');

const sign = (key: string, body: string): SentRequest => ({
  method: 'POST',
  query: `?signature=${pandadocSignature(key, body)}`,
  headers: { 'Content-Type': 'application/json' },
  body,
});

export const pandadocSender: SenderFixture = {
  name: 'pandadoc',
  verification: { scheme: 'pandadoc', secret: sharedKey },
  body,
  triggerData: events,
  signed: (body) => sign(sharedKey, body),
  signedWrongly: (body) => sign(otherKey, body),
  toleranceSeconds: null,
};
