/**
 * Meta (WhatsApp, Messenger, Instagram): `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>`
 * under the App Secret. Its handshake is a GET, unsigned: `hub.mode=subscribe`, `hub.verify_token`
 * (the token the person chose, in the app's settings) and `hub.challenge`; the challenge is answered
 * as text when the token matches, else 403. Nothing signed tells deliveries apart but the body.
 */
import { digestHeader, echoable, hmac, sameText, setting, type SenderCheck } from './check';

export const meta: SenderCheck = {
  verify: (v, { headers, body }) =>
    digestHeader(headers, 'X-Hub-Signature-256', hmac('sha256', setting(v, 'secret'), body), 'hex', 'sha256='),
  handshake: {
    signed: false,
    of(v, { method, query }) {
      const challenge = echoable(query.get('hub.challenge'));
      if (method !== 'GET' || query.get('hub.mode') !== 'subscribe' || !challenge) return null;
      const token = query.get('hub.verify_token');
      if (!token) return { refused: 'missing hub.verify_token', status: 403 };
      if (!sameText(token, setting(v, 'verifyToken')))
        return { refused: 'hub.verify_token does not match', status: 403 };
      return { answer: { status: 200, contentType: 'text/plain', body: challenge } };
    },
  },
  headersRead: () => ['x-hub-signature-256'],
};
