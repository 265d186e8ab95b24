/**
 * Tally as the tests play it. Tally publishes no library that signs or verifies: deliveries are signed
 * as its webhooks help page says, `Tally-Signature: <base64 HMAC-SHA256 of the JSON payload>`, keyed
 * with the webhook's signing secret as text. No signed time, no handshake. The body's `eventId` is
 * Tally's id of the event, the same on its retries (its API retries an event by that id).
 */
import { createHmac } from 'node:crypto';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

// Tally shows a UUID as the signing secret; a person may type another.
const signingSecret = madeSecret('tally-signing-secret', 36);
const otherSecret = madeSecret('tally-other-secret', 36);

const event = {
  eventId: 'a4cb511e-d513-4fa5-baee-b815d718dfd1',
  eventType: 'FORM_RESPONSE',
  createdAt: '2026-01-01T12:00:00.889Z',
  data: {
    responseId: '2wgx4n',
    submissionId: '2wgx4n',
    respondentId: 'dwQKYm',
    formId: 'VwbNEw',
    formName: 'Contact form',
    createdAt: '2026-01-01T12:00:00.000Z',
    fields: [
      { key: 'question_mVGEg3', label: 'Email', type: 'INPUT_EMAIL', value: 'ann@example.com' },
      { key: 'question_nPxBj4', label: 'Name', type: 'INPUT_TEXT', value: 'Ann' },
    ],
  },
};
const body = JSON.stringify(event);

/** The `Tally-Signature` of `body` under `key`. */
export const tallySignature = (key: string, body: string | Buffer) =>
  createHmac('sha256', key).update(body).digest('base64');

const sign = (key: string, body: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {
    'Content-Type': 'application/json',
    'User-Agent': 'Tally Webhooks',
    'Tally-Signature': tallySignature(key, body),
  },
  body,
});

export const tallySender: SenderFixture = {
  name: 'tally',
  verification: { scheme: 'tally', secret: signingSecret },
  body,
  triggerData: event,
  signed: (body) => sign(signingSecret, body),
  signedWrongly: (body) => sign(otherSecret, body),
  toleranceSeconds: null,
};
