/**
 * Typeform as the tests play it. Typeform publishes no library that signs or verifies webhooks:
 * deliveries are signed as its "Secure your webhooks" guide says, `Typeform-Signature: sha256=<base64
 * HMAC-SHA256 of the body>`, keyed with the webhook's `secret` (set through the Webhooks API or the
 * form's Connect → Webhooks → Edit) as text. No signed time, no handshake; the body's `event_id` is
 * Typeform's id of the submission's event, the same when it sends it again.
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

// Typeform's guide suggests a random hex string of 20 bytes; a person may type any text.
const secret = madeSecret('typeform-webhook-secret', 40);
const otherSecret = madeSecret('typeform-other-secret', 40);

const event = {
  event_id: '01JGXZ8Q4V6E1B2C3D4E5F6G7H',
  event_type: 'form_response',
  form_response: {
    form_id: 'lT4Z3j',
    token: 'a3a12ec67a1365927098a606107fac15',
    landed_at: '2026-01-01T11:58:02Z',
    submitted_at: '2026-01-01T12:00:00Z',
    definition: {
      id: 'lT4Z3j',
      title: 'Contact form',
      fields: [{ id: 'JwWggjAKtOkA', ref: 'email', type: 'email', title: 'Your email?' }],
    },
    answers: [{ type: 'email', email: 'ann@example.com', field: { id: 'JwWggjAKtOkA', type: 'email', ref: 'email' } }],
  },
};
const body = JSON.stringify(event);

/** The `Typeform-Signature` of `body` under `key`. */
export const typeformSignature = (key: string, body: string | Buffer) =>
  `sha256=${createHmac('sha256', key).update(body).digest('base64')}`;

const sign = (key: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {
    'Content-Type': 'application/json',
    'User-Agent': 'Typeform Webhooks',
    'Typeform-Signature': typeformSignature(key, body),
  },
  body,
});

export const typeformSender: SenderFixture = {
  name: 'typeform',
  verification: { scheme: 'typeform', secret },
  body,
  triggerData: event,
  signed: (body) => sign(secret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
};
