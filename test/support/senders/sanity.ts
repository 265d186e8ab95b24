/**
 * Sanity (GROQ-powered webhooks) as the tests play it. Sanity's library (`@sanity/webhook`) signs only
 * asynchronously (`encodeSignatureHeader`, Web Crypto), so deliveries are signed here by the algorithm it
 * implements, and `sdkAccepts` runs its `isValidSignature`: `sanity-webhook-signature: t=<unix ms>,
 * v1=<base64url, unpadded, HMAC-SHA256 of "<t>.<body>">` (no space after the comma) under the webhook's
 * secret taken as text. The library checks no time and Sanity's docs name no window (they warn that
 * deliveries can be late), so the receiver allows the usual 5 minutes. Sanity sends an `idempotency-key`
 * header that stays the same on its retries (not signed). No handshake.
 */
import { createHmac } from 'node:crypto';
import { isValidSignature } from '@sanity/webhook';
import { madeSecret, type SenderFixture, type SentRequest } from './fixture';

const secret = madeSecret('sanity-webhook-secret', 32);
const otherSecret = madeSecret('sanity-other-secret', 32);

const document = {
  _id: 'movie_1',
  _type: 'movie',
  _rev: 'made-up-revision-1',
  _createdAt: '2026-01-01T11:00:00Z',
  _updatedAt: '2026-01-01T12:00:00Z',
  title: 'Ship it',
  slug: { _type: 'slug', current: 'ship-it' },
};
const body = JSON.stringify(document);

/** The `sanity-webhook-signature` header's value for `body` under `key` at `at`. */
export function sanitySignature(key: string, body: string | Buffer, at: Date): string {
  const t = at.getTime();
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.`).update(body).digest('base64url')}`;
}

const sign = (key: string, body: string, at: Date): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {
    'content-type': 'application/json',
    'idempotency-key': 'made-up-idempotency-key-1',
    'sanity-operation': 'update',
    'sanity-document-id': document._id,
    'sanity-webhook-signature': sanitySignature(key, body, at),
  },
  body,
});

export const sanitySender: SenderFixture = {
  name: 'sanity',
  verification: { scheme: 'sanity', secret },
  body,
  triggerData: document,
  signed: (body, _url, at) => sign(secret, body, at),
  signedWrongly: (body, _url, at) => sign(otherSecret, body, at),
  toleranceSeconds: 300,
  async sdkAccepts(sent) {
    const valid = await isValidSignature(String(sent.body), sent.headers['sanity-webhook-signature'], secret);
    if (!valid) throw new Error('@sanity/webhook: the signature does not verify');
  },
};
