/** Asana (src/domain/senders/asana.ts), checked with the sender as test/support/senders/asana.ts plays it. */
import { SENDERS, type CustomVerification } from '../../../src/domain/senders/catalog';
import { checkOf } from '../../../src/domain/senders/checks';
const asana = checkOf('asana');
import type { Handshake, HandshakeAnswer, Verdict } from '../../../src/domain/senders/parts';
import { asanaHandshake, asanaHookSecret, asanaSender } from '../../support/senders/asana';
import { asReceived, madeSecret, type Answer, type SentRequest } from '../../support/senders/fixture';

const url = 'https://robots.example.com/api/webhooks/asana-test';
const at = new Date('2026-01-01T12:00:00Z');
const { body } = asanaSender;
/** The app as made: no secret until Asana's handshake gives one. */
const fresh: CustomVerification = { scheme: 'asana' };
/** The app once the handshake's secret is kept. */
const learned: CustomVerification = { scheme: 'asana', secret: asanaHookSecret };

const received = (sent: SentRequest) => asReceived(sent, url, at);
const verify = (sent: SentRequest, app = learned) => asana.verify(app, received(sent));
const handshakeOf = (sent: SentRequest, app: CustomVerification) => asana.handshakes.unsigned!(app, received(sent));
const withSignature = (value: string): SentRequest => ({
  method: 'POST',
  query: '',
  headers: { 'X-Hook-Signature': value },
  body,
});

function expectRefused(verdict: Verdict, reason: RegExp) {
  if (verdict.ok) throw new Error('expected a refusal');
  expect(verdict.reason).toMatch(reason);
  expect(verdict.reason).not.toContain(asanaHookSecret);
  expect(verdict.reason).not.toMatch(/[0-9a-f]{16}/);
}

function answered(h: Handshake | null): { answer: HandshakeAnswer; learnedSecret?: string } {
  if (!h || !('answer' in h)) throw new Error(`expected an answer, got ${JSON.stringify(h)}`);
  return h;
}

/** The answer as the receiver sends it (src/receiver/webhooks.ts): header names lower-cased. */
const asAnswer = (a: HandshakeAnswer): Answer => ({
  status: a.status,
  headers: Object.fromEntries(Object.entries(a.headers ?? {}).map(([k, value]) => [k.toLowerCase(), value])),
  body: a.body ?? '',
});

describe('asana', () => {
  test('nothing is filled in at creation, and no time is signed', () => {
    expect(SENDERS.asana.settings).toEqual([]);
    expect(SENDERS.asana.toleranceSeconds).toBeNull();
    expect(asanaSender.toleranceSeconds).toBeNull();
  });

  test('before the handshake every delivery is refused', () => {
    expectRefused(verify(asanaSender.signed(body, url, at), fresh), /^no X-Hook-Secret handshake yet$/);
  });

  describe('the handshake', () => {
    test('is looked at before verify (Asana does not sign it)', () => {
      expect(asana.handshakes.unsigned).toBeDefined();
    });

    test('is answered 200 with the same X-Hook-Secret, which is kept as the secret, as Asana takes it', () => {
      const h = answered(handshakeOf(asanaSender.handshake!.request(url, at), fresh));
      expect(h).toEqual({
        answer: { status: 200, headers: { 'X-Hook-Secret': asanaHookSecret } },
        learnedSecret: asanaHookSecret,
      });
      expect(() => asanaSender.handshake!.accepts(asAnswer(h.answer))).not.toThrow();
    });

    test('another secret, once the URL has a confirmed one, is echoed and handed on as pending (R1)', () => {
      const second = madeSecret('asana-second-secret', 64);
      expect(handshakeOf(asanaHandshake(second), learned)).toEqual({
        answer: { status: 200, headers: { 'X-Hook-Secret': second } },
        learnedSecret: second,
      });
    });

    test('the secret kept, sent again (Asana retrying), is answered as the first was and learns nothing', () => {
      expect(handshakeOf(asanaHandshake(), learned)).toEqual({
        answer: { status: 200, headers: { 'X-Hook-Secret': asanaHookSecret } },
      });
    });

    test('is only a POST with an X-Hook-Secret of visible ASCII up to 1024 characters', () => {
      expect(handshakeOf({ ...asanaHandshake(), method: 'GET' }, fresh)).toBeNull();
      expect(handshakeOf(asanaSender.signed(body, url, at), fresh)).toBeNull();
      expect(handshakeOf(asanaHandshake('a secret with spaces'), fresh)).toBeNull();
      expect(handshakeOf(asanaHandshake('x'.repeat(1025)), fresh)).toBeNull();
    });
  });

  test('a delivery signed with the handshake secret is accepted', () => {
    expect(verify(asanaSender.signed(body, url, at))).toEqual({ ok: true });
  });

  test('X-Hook-Signature is a bare hex digest of 32 bytes (HMAC-SHA256)', () => {
    const header = asanaSender.signed(body, url, at).headers['X-Hook-Signature'];
    expect(header).toMatch(/^[0-9a-f]{64}$/);
  });

  test('a tampered body is refused', () => {
    const sent = asanaSender.signed(body, url, at);
    expectRefused(verify({ ...sent, body: body.replace('changed', 'removed') }), /signature does not match/);
  });

  test('a delivery signed with another secret is refused', () => {
    expectRefused(verify(asanaSender.signedWrongly(body, url, at)), /signature does not match/);
  });

  test('a missing header is refused, named', () => {
    expectRefused(verify({ ...asanaSender.signed(body, url, at), headers: {} }), /^missing X-Hook-Signature header$/);
  });

  test('a signature that is not 32 bytes of hex is refused as malformed', () => {
    expectRefused(verify(withSignature('sha256=' + 'a'.repeat(64))), /^malformed X-Hook-Signature header/);
    expectRefused(verify(withSignature('abc')), /^malformed X-Hook-Signature header/);
  });

  test('no delivery id: deliveries are told apart by the body digest', () => {
    expect(asana.deliveryId).toBeUndefined();
  });

  test('the headers kept are the signature, never X-Hook-Secret', () => {
    expect(asana.headersRead(learned)).toEqual(['x-hook-signature']);
  });
});
