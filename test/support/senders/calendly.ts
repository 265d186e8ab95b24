/**
 * Calendly as the tests play it. Calendly publishes no library that signs or verifies: deliveries
 * are signed by its documented algorithm, `Calendly-Webhook-Signature: t=<unix s>,v1=<hex
 * HMAC-SHA256 of "<t>.<body>">` under the subscription's signing key.
 */
import { createHmac } from 'node:crypto';
import { SENDERS } from '../../../src/domain/senders/catalog';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const signingKey = madeSecret('calendly-signing-key', 43);
const otherKey = madeSecret('calendly-other-key', 43);

const body = JSON.stringify({
  created_at: '2026-01-01T12:00:00.000000Z',
  created_by: 'https://api.calendly.com/users/AAAA',
  event: 'invitee.created',
  payload: { email: 'ann@example.com', name: 'Ann', status: 'active', uri: 'https://api.calendly.com/invitees/1' },
});

/** The header's value for `body` signed with `key` at `seconds`. */
export function calendlySignature(key: string, body: string | Buffer, seconds: number): string {
  const digest = createHmac('sha256', key).update(`${seconds}.`).update(body).digest('hex');
  return `t=${seconds},v1=${digest}`;
}

function sign(key: string, body: string, at: Date): SentRequest {
  const seconds = Math.floor(at.getTime() / 1000);
  return {
    method: 'POST',
    query: '',
    headers: {
      'Content-Type': 'application/json',
      'Calendly-Webhook-Signature': calendlySignature(key, body, seconds),
    },
    body,
  };
}

export const calendlySender: SenderFixture = {
  name: 'calendly',
  verification: { scheme: 'calendly', secret: signingKey },
  body,
  triggerData: JSON.parse(body),
  signed: (body, _url, at) => sign(signingKey, body, at),
  signedWrongly: (body, _url, at) => sign(otherKey, body, at),
  toleranceSeconds: SENDERS.calendly.toleranceSeconds,
};
