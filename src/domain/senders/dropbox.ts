/**
 * Dropbox: `X-Dropbox-Signature: <hex HMAC-SHA256 of the body>` under the App secret. Its handshake
 * is a GET, unsigned, with a `challenge` query parameter, answered with the challenge as text (the
 * receiver adds `X-Content-Type-Options: nosniff`, as Dropbox asks). A notification only says which
 * accounts changed, and nothing signed tells two apart but the body (the catalog's body window).
 */
import { digestHeader, echoable, hmac, setting, type SenderCheck } from './check';

export const dropbox: SenderCheck = {
  verify: (v, { headers, body }) =>
    digestHeader(headers, 'X-Dropbox-Signature', hmac('sha256', setting(v, 'secret'), body), 'hex'),
  handshake: {
    signed: false,
    of(_v, { method, query }) {
      const challenge = echoable(query.get('challenge'));
      if (method !== 'GET' || !challenge) return null;
      return { answer: { status: 200, contentType: 'text/plain', body: challenge } };
    },
  },
  headersRead: () => ['x-dropbox-signature'],
};
