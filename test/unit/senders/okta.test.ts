/** Okta event hooks (src/domain/senders/okta.ts), checked with the sender as test/support/senders/okta.ts plays it. */
import { SENDERS, type CustomVerification } from '../../../src/domain/senders/catalog';
import type { Handshake, HandshakeAnswer, Verdict } from '../../../src/domain/senders/parts';
import { checkOf } from '../../../src/domain/senders/checks';
const okta = checkOf('okta');
import { asReceived, type Answer, type SentRequest } from '../../support/senders/fixture';
import { OKTA_HEADER, oktaSecret as secret, oktaSender, oktaVerification } from '../../support/senders/okta';

const url = 'https://robots.example.com/api/webhooks/okta-test';
const at = new Date('2026-01-01T12:00:00Z');
const { body } = oktaSender;
const v: CustomVerification = { scheme: 'okta', header: OKTA_HEADER, secret };

const verify = (sent: SentRequest, app = v) => okta.verify(app, asReceived(sent, url, at));
const handshakeOf = (sent: SentRequest, app = v) => okta.handshakes.unsigned!(app, asReceived(sent, url, at));

function expectRefused(verdict: Verdict, reason: RegExp) {
  if (verdict.ok) throw new Error('expected a refusal');
  expect(verdict.reason).toMatch(reason);
  expect(verdict.reason).not.toContain(secret);
}

function answerOf(h: Handshake | null): HandshakeAnswer {
  if (!h || !('answer' in h)) throw new Error(`expected an answer, got ${JSON.stringify(h)}`);
  return h.answer;
}

/** The answer as the receiver sends it (src/receiver/webhooks.ts). */
const asAnswer = (a: HandshakeAnswer): Answer => ({
  status: a.status,
  headers: { ...(a.contentType ? { 'content-type': a.contentType } : {}) },
  body: a.body ?? '',
});

describe('okta', () => {
  test('no time is signed: the catalog and the fixture say so', () => {
    expect(SENDERS.okta.toleranceSeconds).toBeNull();
    expect(oktaSender.toleranceSeconds).toBeNull();
  });

  test('a delivery with the Authentication secret in its Authentication field is accepted', () => {
    expect(verify(oktaSender.signed(body, url, at))).toEqual({ ok: true });
  });

  test('a delivery with another secret is refused, naming the header only', () => {
    expectRefused(verify(oktaSender.signedWrongly(body, url, at)), /^Authorization header does not equal/);
  });

  test('a delivery without the header is refused, named', () => {
    const sent = oktaSender.signed(body, url, at);
    expectRefused(
      verify({ ...sent, headers: { 'Content-Type': 'application/json' } }),
      /^missing Authorization header$/,
    );
  });

  test('the body is not signed: a changed body with the secret is accepted (the credential is static)', () => {
    const sent = oktaSender.signed(body, url, at);
    expect(verify({ ...sent, body: body.replace('Ann', 'Bob') })).toEqual({ ok: true });
  });

  test('a verification without its header setting reads Authorization', () => {
    expect(verify(oktaSender.signed(body, url, at), { scheme: 'okta', secret })).toEqual({ ok: true });
  });

  test('another Authentication field is read instead of Authorization', () => {
    const custom: CustomVerification = { scheme: 'okta', header: 'X-Okta-Hook-Key', secret };
    expect(verify({ method: 'POST', query: '', headers: { 'X-Okta-Hook-Key': secret }, body }, custom)).toEqual({
      ok: true,
    });
    expectRefused(verify(oktaSender.signed(body, url, at), custom), /^missing X-Okta-Hook-Key header$/);
  });

  describe('the verification GET', () => {
    test('is looked at before verify (Okta signs nothing)', () => {
      expect(okta.handshakes.unsigned).toBeDefined();
      expect(SENDERS.okta.handshake?.method).toBe('GET');
    });

    test('with the Authentication header is answered 200 JSON {verification: <challenge>}, as Okta takes it', () => {
      const sent = oktaSender.handshake!.request(url, at);
      const answer = answerOf(handshakeOf(sent));
      const challenge = sent.headers['x-okta-verification-challenge'];
      expect(answer).toEqual({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ verification: challenge }),
      });
      expect(() => oktaSender.handshake!.accepts(asAnswer(answer))).not.toThrow();
    });

    test('without the Authentication header, or with another secret, is refused 400 and not echoed', () => {
      expect(handshakeOf(oktaVerification(null).sent)).toEqual({
        refused: 'missing Authorization header',
        status: 400,
      });
      const wrong = handshakeOf(oktaVerification('Basic b3RoZXI6c2VjcmV0').sent);
      expect(wrong).toEqual({ refused: 'Authorization header does not equal the Authentication secret', status: 400 });
    });

    test('is only a GET with a challenge of 1 to 1024 characters; anything else is no handshake', () => {
      const { sent } = oktaVerification();
      expect(handshakeOf({ ...sent, method: 'POST' })).toBeNull();
      const { 'x-okta-verification-challenge': _challenge, ...without } = sent.headers;
      expect(handshakeOf({ ...sent, headers: without })).toBeNull();
      const tooLong = { ...sent.headers, 'x-okta-verification-challenge': 'x'.repeat(1025) };
      expect(handshakeOf({ ...sent, headers: tooLong })).toBeNull();
      expect(handshakeOf(oktaSender.signed(body, url, at))).toBeNull();
    });
  });

  test('no delivery id: deliveries are told apart by the body digest', () => {
    expect(okta.deliveryId).toBeUndefined();
  });

  test('the headers kept never include the Authentication field (it is the secret)', () => {
    expect(okta.headersRead(v)).toEqual(['x-okta-verification-challenge']);
    expect(okta.headersRead({ scheme: 'okta', header: 'X-Okta-Hook-Key', secret })).not.toContain('x-okta-hook-key');
  });
});
