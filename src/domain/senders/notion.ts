/**
 * Notion: `X-Notion-Signature: sha256=<hex HMAC-SHA256 of the body>` under the verification token
 * Notion gave in its handshake. Nothing is filled in when the app is made: until that handshake
 * came, every delivery is refused. Deliveries are told apart by the event's `id` (signed, in the
 * body): a retry changes `attempt_number`, so the body's digest would not do.
 *
 * Handshake (unsigned, looked at before `verify`): when a subscription is made, Notion POSTs a body
 * whose only field is `verification_token` and expects `200`; the person then pastes the token back
 * into Notion's Verify (the card shows it). The first one is answered `200` and its token kept
 * (sealed) as the app's secret; the same token again is answered `200`; another one is refused
 * `400` until the verification is saved again.
 */
import { digestHeader, echoable, fail, hmac, jsonObject, sameText, type SenderCheck } from './check';

export const notion: SenderCheck = {
  verify(v, { headers, body }) {
    if (v.secret === undefined) return fail('no verification_token handshake yet');
    return digestHeader(headers, 'X-Notion-Signature', hmac('sha256', v.secret, body), 'hex', 'sha256=');
  },
  handshake: {
    signed: false,
    of(v, { body }) {
      const message = jsonObject(body);
      const token = echoable(message?.verification_token);
      if (!message || !token || Object.keys(message).length !== 1) return null;
      if (v.secret === undefined) return { answer: { status: 200 }, learnedSecret: token };
      if (sameText(token, v.secret)) return { answer: { status: 200 } };
      return {
        refused: 'Notion sent another verification_token; save the verification again to take it',
        status: 400,
      };
    },
  },
  deliveryId({ body }) {
    const id = jsonObject(body)?.id;
    return typeof id === 'string' && id !== '' ? id : undefined;
  },
  headersRead: () => ['x-notion-signature'],
};
