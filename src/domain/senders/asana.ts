/**
 * Asana: `X-Hook-Signature: <hex HMAC-SHA256 of the body>` under the secret Asana gave in its
 * handshake. Nothing is filled in when the app is made: until that handshake came, every delivery
 * is refused. No time is signed: deliveries are told apart by the body's digest.
 *
 * Handshake (unsigned, looked at before `verify`): when a webhook is made, Asana POSTs (no body)
 * with an `X-Hook-Secret` header and expects `200` or `204` with the same `X-Hook-Secret`. The first
 * one is answered `200` with it and its secret kept (sealed) as the app's; once the app has one,
 * another is refused `400` and not echoed (so Asana does not take a webhook whose secret is not
 * ours), until the verification is saved again. `X-Hook-Secret` is never kept with a delivery.
 */
import { headerValue } from '../headers';
import { digestHeader, echoable, fail, hmac, sameText, type SenderCheck } from './check';

/** Visible ASCII only: the secret is echoed in a header of the answer (Asana's are 64 hex). */
const HEADER_TOKEN = /^[\x21-\x7e]+$/;

export const asana: SenderCheck = {
  verify(v, { headers, body }) {
    if (v.secret === undefined) return fail('no X-Hook-Secret handshake yet');
    return digestHeader(headers, 'X-Hook-Signature', hmac('sha256', v.secret, body), 'hex');
  },
  handshake: {
    signed: false,
    of(v, { method, headers }) {
      const given = echoable(headerValue(headers, 'x-hook-secret'));
      if (method !== 'POST' || !given || !HEADER_TOKEN.test(given)) return null;
      // The one kept, again (Asana retrying its handshake): answered as the first was.
      if (v.secret !== undefined && sameText(given, v.secret))
        return { answer: { status: 200, headers: { 'X-Hook-Secret': given } } };
      if (v.secret !== undefined) {
        return { refused: 'Asana sent a new X-Hook-Secret; save the verification again to take it', status: 400 };
      }
      return { answer: { status: 200, headers: { 'X-Hook-Secret': given } }, learnedSecret: given };
    },
  },
  headersRead: () => ['x-hook-signature'],
  credentialHeaders: () => ['x-hook-secret'],
};
