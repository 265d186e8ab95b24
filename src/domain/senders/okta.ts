/**
 * Okta event hooks: nothing is signed. Okta sends the Authentication secret it was given, as it
 * is, in the header named as its Authentication field (`Authorization` unless another was named),
 * with every request it makes, the verification GET included (Okta's docs: it "provides it in
 * every request", to authenticate every request). The header must equal the secret (constant
 * time). The credential is a static token and no time is signed: deliveries are told apart by the
 * body's digest. The header is never kept with a delivery (it is the secret).
 *
 * Handshake (unsigned, looked at before `verify`): the one-time `GET` with
 * `X-Okta-Verification-Challenge`, answered `200` JSON `{"verification":"<the challenge>"}` when its
 * Authentication header is the secret, else refused `400`.
 */
import { headerValue, type RequestHeaders } from '../headers';
import type { CustomVerification } from './catalog';
import { echoable, headerEquals, setting, type SenderCheck, type Verdict } from './check';

/** The Authentication field Okta fills in when none is named. */
const DEFAULT_HEADER = 'Authorization';

const headerOf = (v: CustomVerification) => v.header ?? DEFAULT_HEADER;

/** Whether the request carries the Authentication secret in the Authentication field. */
function authenticated(v: CustomVerification, headers: RequestHeaders): Verdict {
  return headerEquals(headers, headerOf(v), setting(v, 'secret'), 'Authentication secret');
}

export const okta: SenderCheck = {
  verify: (v, { headers }) => authenticated(v, headers),
  handshake: {
    signed: false,
    of(v, { method, headers }) {
      if (method !== 'GET') return null;
      const challenge = echoable(headerValue(headers, 'x-okta-verification-challenge'));
      if (!challenge) return null;
      const verdict = authenticated(v, headers);
      if (!verdict.ok) return { refused: verdict.reason, status: 400 };
      return {
        answer: { status: 200, contentType: 'application/json', body: JSON.stringify({ verification: challenge }) },
      };
    },
  },
  headersRead: () => ['x-okta-verification-challenge'],
  credentialHeaders: (v) => [(v.header ?? 'Authorization').toLowerCase()],
};
