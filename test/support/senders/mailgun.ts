/**
 * Mailgun as the tests play it. Mailgun's own libraries do not sign webhooks (they are signed by
 * Mailgun's servers): deliveries are signed by its documented algorithm. The body's `signature`
 * object is `{ timestamp, token, signature }`, `signature` the hex HMAC-SHA256 of timestamp + token
 * under the HTTP webhook signing key. `signed` takes the event (`{"event-data": …}`) and adds the
 * signature object to it, so a delivery's trigger data holds a `signature` made at send time.
 */
import { createHash, createHmac } from 'node:crypto';
import { SENDERS } from '../../../src/domain/senders/catalog';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const signingKey = madeSecret('mailgun-signing-key', 50);
const otherKey = madeSecret('mailgun-other-key', 50);

const eventData = {
  event: 'delivered',
  id: 'CPgfbmQMTCKtHW6uIWtuVe',
  timestamp: 1767268800.123,
  recipient: 'ann@example.com',
  message: { headers: { 'message-id': '20260101120000.1.TEST@example.com', subject: 'Hello' } },
};
const body = JSON.stringify({ 'event-data': eventData });

export interface MailgunSignature {
  timestamp: string;
  token: string;
  signature: string;
}

/** A signature object as Mailgun makes one; the token is the body's (a retry of a body carries the same). */
export function mailgunSignature(key: string, seconds: number, token: string): MailgunSignature {
  const timestamp = String(seconds);
  return {
    timestamp,
    token,
    signature: createHmac('sha256', key)
      .update(timestamp + token)
      .digest('hex'),
  };
}

/** The event with `signature` in front of it, as Mailgun sends it. */
export function withSignature(event: string, signature: MailgunSignature): string {
  const { signature: _old, ...rest } = JSON.parse(event) as Record<string, unknown>;
  return JSON.stringify({ signature, ...rest });
}

/** 50 characters, as Mailgun's tokens: derived from the event, so the same event is one delivery. */
const tokenOf = (event: string) => createHash('sha256').update(event).digest('hex').slice(0, 50);

function sign(key: string, event: string, at: Date): SentRequest {
  const signature = mailgunSignature(key, Math.floor(at.getTime() / 1000), tokenOf(event));
  return {
    method: 'POST',
    query: '',
    headers: { 'Content-Type': 'application/json' },
    body: withSignature(event, signature),
  };
}

export const mailgunSender: SenderFixture = {
  name: 'mailgun',
  verification: { scheme: 'mailgun', secret: signingKey },
  body,
  // Its `signature` object is made at send time.
  triggerData: expect.objectContaining({ 'event-data': eventData }),
  signed: (event, _url, at) => sign(signingKey, event, at),
  signedWrongly: (event, _url, at) => sign(otherKey, event, at),
  toleranceSeconds: SENDERS.mailgun.toleranceSeconds,
};
