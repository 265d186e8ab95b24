/** Notion (src/domain/senders/notion.ts), checked with the sender as test/support/senders/notion.ts plays it. */
import { createHmac } from 'node:crypto';
import { SENDERS, type CustomVerification } from '../../../src/domain/senders/catalog';
import type { Verdict } from '../../../src/domain/senders/parts';
import { checkOf } from '../../../src/domain/senders/checks';
const notion = checkOf('notion');
import { DEDUP_PARSE_BYTES } from '../../../src/domain/limits';
import { asReceived, madeSecret, type SentRequest } from '../../support/senders/fixture';
import { notionEvent, notionHandshake, notionSender, notionVerificationToken } from '../../support/senders/notion';

const url = 'https://robots.example.com/api/webhooks/notion-test';
const at = new Date('2026-01-01T12:00:00Z');
const { body } = notionSender;
const token = notionVerificationToken;
/** The app as made: no token until Notion's verification request gives one. */
const fresh: CustomVerification = { scheme: 'notion' };
/** The app once the token is kept. */
const learned: CustomVerification = { scheme: 'notion', secret: token };

const received = (sent: SentRequest) => asReceived(sent, url, at);
const verify = (sent: SentRequest, app = learned) => notion.verify(app, received(sent));
const handshakeOf = (sent: SentRequest, app: CustomVerification) => notion.handshakes.unsigned!(app, received(sent));
const posted = (value: unknown): SentRequest => ({
  method: 'POST',
  query: '',
  headers: {},
  body: JSON.stringify(value),
});

function expectRefused(verdict: Verdict, reason: RegExp) {
  if (verdict.ok) throw new Error('expected a refusal');
  expect(verdict.reason).toMatch(reason);
  expect(verdict.reason).not.toContain(token);
  expect(verdict.reason).not.toMatch(/[0-9a-f]{16}/);
}

describe('notion', () => {
  test('nothing is filled in at creation, and no time is signed', () => {
    expect(SENDERS.notion.settings).toEqual([]);
    expect(SENDERS.notion.toleranceSeconds).toBeNull();
    expect(notionSender.toleranceSeconds).toBeNull();
  });

  test('before the verification request every delivery is refused', () => {
    expectRefused(verify(notionSender.signed(body, url, at), fresh), /^no verification_token handshake yet$/);
  });

  describe('the verification request', () => {
    test('is looked at before verify (Notion does not sign it)', () => {
      expect(notion.handshakes.unsigned).toBeDefined();
    });

    test('is answered 200 and its token kept as the secret, as Notion takes it', () => {
      const h = handshakeOf(notionSender.handshake!.request(url, at), fresh);
      expect(h).toEqual({ answer: { status: 200 }, learnedSecret: token });
      expect(() => notionSender.handshake!.accepts({ status: 200, headers: {}, body: '' })).not.toThrow();
    });

    test('the same token again is answered 200, nothing learned', () => {
      expect(handshakeOf(notionHandshake(), learned)).toEqual({ answer: { status: 200 } });
    });

    test('another token, once the URL has a confirmed one, is answered and handed on as pending (R1)', () => {
      const second = 'secret_' + madeSecret('notion-second', 43);
      expect(handshakeOf(notionHandshake(second), learned)).toEqual({ answer: { status: 200 }, learnedSecret: second });
    });

    test.each([
      ['a body with other fields', { verification_token: token, type: 'page.created' }],
      ['a token that is not a string', { verification_token: 42 }],
      ['an empty token', { verification_token: '' }],
      ['a token over 1024 characters', { verification_token: 'x'.repeat(1025) }],
      ['an array', [{ verification_token: token }]],
    ])('%s is no verification request', (_case, value) => {
      expect(handshakeOf(posted(value), fresh)).toBeNull();
    });

    test('a verification body past DEDUP_PARSE_BYTES is no handshake, and is not parsed (R5)', () => {
      const json = notionHandshake().body as string;
      const large = { ...notionHandshake(), body: json.slice(0, -1) + ' '.repeat(DEDUP_PARSE_BYTES) + '}' };
      const parse = jest.spyOn(JSON, 'parse');
      try {
        expect(handshakeOf(large, fresh)).toBeNull();
        expect(parse).not.toHaveBeenCalled();
      } finally {
        parse.mockRestore();
      }
    });

    test('a body that is not JSON, and an event, are no verification request', () => {
      expect(handshakeOf({ ...posted(null), body: 'verification_token=x' }, fresh)).toBeNull();
      expect(handshakeOf(notionSender.signed(body, url, at), learned)).toBeNull();
    });
  });

  test('a delivery signed with the verification token is accepted', () => {
    expect(verify(notionSender.signed(body, url, at))).toEqual({ ok: true });
  });

  test('X-Notion-Signature is sha256= and the hex HMAC-SHA256 of the body keyed by the token', () => {
    const header = notionSender.signed(body, url, at).headers['X-Notion-Signature'];
    expect(header).toBe('sha256=' + createHmac('sha256', token).update(body).digest('hex'));
  });

  test('a tampered body is refused', () => {
    const sent = notionSender.signed(body, url, at);
    expectRefused(verify({ ...sent, body: body.replace('page.created', 'page.deleted') }), /signature does not match/);
  });

  test('a delivery signed with another token is refused', () => {
    expectRefused(verify(notionSender.signedWrongly(body, url, at)), /signature does not match/);
  });

  test('a missing header is refused, named', () => {
    expectRefused(
      verify({ ...notionSender.signed(body, url, at), headers: {} }),
      /^missing X-Notion-Signature header$/,
    );
  });

  test('a digest without its sha256= prefix is refused as malformed', () => {
    const sent = notionSender.signed(body, url, at);
    const bare = sent.headers['X-Notion-Signature'].slice('sha256='.length);
    const unprefixed = { ...sent, headers: { 'X-Notion-Signature': bare } };
    expectRefused(verify(unprefixed), /^malformed X-Notion-Signature header/);
  });

  describe('the delivery id', () => {
    const idOf = (text: string) => notion.deliveryId!(received({ ...posted(null), body: text }));

    test("is the event's id, the same on a retry whose attempt_number (and so its digest) differs", () => {
      const first = notionEvent(1);
      const retry = notionEvent(2);
      expect(first).not.toBe(retry);
      expect(idOf(first)).toBe(JSON.parse(first).id);
      expect(idOf(retry)).toBe(idOf(first));
      expect(verify(notionSender.signed(retry, url, at))).toEqual({ ok: true });
    });

    test('is undefined without a string id (the body digest then)', () => {
      expect(idOf(JSON.stringify({ type: 'page.created' }))).toBeUndefined();
      expect(idOf(JSON.stringify({ id: { n: 7 } }))).toBeUndefined();
      expect(idOf(JSON.stringify({ id: '' }))).toBeUndefined();
      expect(idOf('not json')).toBeUndefined();
    });
  });

  test('the headers kept are the signature', () => {
    expect(notion.headersRead(learned)).toEqual(['x-notion-signature']);
  });
});
