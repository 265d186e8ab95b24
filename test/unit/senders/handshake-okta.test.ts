/**
 * Okta's handshake (src/domain/senders/handshakes.ts, `okta`): the one-time verification GET carries
 * the Authentication credential too, and is answered only with it. That it is answered as Okta takes
 * it is a case of ../senders.test.ts.
 */
import type { CustomVerification } from '../../../src/domain/senders/catalog';
import { oktaSecret, oktaSender, oktaVerification } from '../../support/senders/okta';
import { handshakeOf } from '../../support/senders/verdicts';

const url = 'https://robots.example.com/api/webhooks/okta-test';
const v = oktaSender.verification as unknown as CustomVerification;

test('without the Authentication header, or with another secret, it is refused 400, the challenge not echoed', () => {
  expect(handshakeOf(v, oktaVerification(null).sent, url)).toEqual({
    refused: 'missing Authorization header',
    status: 400,
  });
  expect(handshakeOf(v, oktaVerification('Basic b3RoZXI6c2VjcmV0').sent, url)).toEqual({
    refused: 'Authorization header does not equal the Authentication secret',
    status: 400,
  });
});

test('a verification without its header setting reads Authorization, on the GET as on deliveries', () => {
  const { sent, challenge } = oktaVerification();
  expect(handshakeOf({ scheme: 'okta', secret: oktaSecret }, sent, url)).toMatchObject({
    answer: { status: 200, body: JSON.stringify({ verification: challenge }) },
  });
});

test('only a GET with a challenge of 1 to 1024 characters is one; anything else is no handshake', () => {
  const { sent } = oktaVerification();
  const { 'x-okta-verification-challenge': _challenge, ...without } = sent.headers;
  const tooLong = { ...sent.headers, 'x-okta-verification-challenge': 'x'.repeat(1025) };
  for (const other of [
    { ...sent, headers: without },
    { ...sent, headers: tooLong },
  ])
    expect(handshakeOf(v, other, url)).toBeNull();
  expect(handshakeOf(v, { ...sent, method: 'POST', body: oktaSender.body }, url)).toBeNull();
});
