/**
 * Asana: `X-Hook-Signature: <hex HMAC-SHA256 of the body>` under the secret Asana gave in its
 * handshake. Nothing is filled in when the app is made: until that handshake came, every delivery
 * is refused. No time is signed: deliveries are told apart by the body's digest.
 *
 * Handshake (unsigned, looked at before `verify`): when a webhook is made, Asana POSTs (no body)
 * with an `X-Hook-Secret` header and expects `200` or `204` with the same `X-Hook-Secret`. Every
 * one is answered `200` with it; a secret other than the URL's confirmed one is handed on as
 * learned, which keeps it pending until an editor confirms it (src/robots/handshake-secrets.ts):
 * anyone with the URL can send a handshake, so none makes a secret active by itself.
 * `X-Hook-Secret` is never kept with a delivery.
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
      const answer = { status: 200 as const, headers: { 'X-Hook-Secret': given } };
      // The confirmed one again (Asana retrying its handshake): answered as the first was.
      if (v.secret !== undefined && sameText(given, v.secret)) return { answer };
      return { answer, learnedSecret: given };
    },
  },
  headersRead: () => ['x-hook-signature'],
  credentialHeaders: () => ['x-hook-secret'],
};
