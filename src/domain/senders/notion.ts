/**
 * Notion: `X-Notion-Signature: sha256=<hex HMAC-SHA256 of the body>` under the verification token
 * Notion gave in its handshake. Nothing is filled in when the app is made: until that handshake
 * came, every delivery is refused. Deliveries are told apart by the event's `id` (signed, in the
 * body): a retry changes `attempt_number`, so the body's digest would not do.
 *
 * Handshake (unsigned, looked at before `verify`): when a subscription is made, Notion POSTs a body
 * whose only field is `verification_token` and expects `200`; the person then pastes the token back
 * into Notion's Verify. Every one is answered `200`; a token other than the URL's confirmed one is
 * handed on as learned, which keeps it pending until an editor confirms it (src/robots/
 * handshake-secrets.ts), and the confirmation shows it once, to paste back.
 */
import {
  digestHeader,
  echoable,
  fail,
  hmac,
  jsonObject,
  sameText,
  unsignedJsonObject,
  type SenderCheck,
} from './check';

export const notion: SenderCheck = {
  verify(v, { headers, body }) {
    if (v.secret === undefined) return fail('no verification_token handshake yet');
    return digestHeader(headers, 'X-Notion-Signature', hmac('sha256', v.secret, body), 'hex', 'sha256=');
  },
  handshake: {
    signed: false,
    of(v, { body }) {
      const message = unsignedJsonObject(body);
      const token = echoable(message?.verification_token);
      if (!message || !token || Object.keys(message).length !== 1) return null;
      if (v.secret !== undefined && sameText(token, v.secret)) return { answer: { status: 200 } };
      return { answer: { status: 200 }, learnedSecret: token };
    },
  },
  deliveryId({ body }) {
    const id = jsonObject(body)?.id;
    return typeof id === 'string' && id !== '' ? id : undefined;
  },
  headersRead: () => ['x-notion-signature'],
};
