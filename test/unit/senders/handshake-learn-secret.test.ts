/**
 * The `learn-secret` handshake (src/domain/senders/handshakes.ts): Asana and Notion give their secret
 * in an unsigned handshake; it is offered, kept pending until an editor confirms it. Before it, every
 * delivery is refused; the one kept, sent again, learns nothing; another is offered again (R1). That
 * each is answered as its sender takes it is a case of ../senders.test.ts.
 */
import type { CustomVerification } from '../../../src/domain/senders/catalog';
import { senderDeliveryId, verifySender } from '../../../src/domain/senders/checks';
import { DEDUP_PARSE_BYTES } from '../../../src/domain/limits';
import { asReceived, madeSecret, type SentRequest } from '../../support/senders/fixture';
import { asanaHandshake, asanaHookSecret, asanaSender } from '../../support/senders/asana';
import { notionEvent, notionHandshake, notionSender, notionVerificationToken } from '../../support/senders/notion';
import { expectRefused, handshakeOf } from '../../support/senders/verdicts';

const url = 'https://robots.example.com/api/webhooks/learn-test';
const at = new Date('2026-01-01T12:00:00Z');
const posted = (body: string): SentRequest => ({ method: 'POST', query: '', headers: {}, body });

describe.each([
  {
    name: 'asana' as const,
    given: asanaHookSecret,
    handshake: asanaHandshake,
    answer: (secret: string) => ({ status: 200, headers: { 'X-Hook-Secret': secret } }),
    fixture: asanaSender,
    before: /^no X-Hook-Secret handshake yet$/,
  },
  {
    name: 'notion' as const,
    given: notionVerificationToken,
    handshake: notionHandshake,
    answer: () => ({ status: 200 }),
    fixture: notionSender,
    before: /^no verification_token handshake yet$/,
  },
])('$name', ({ name, given, handshake, answer, fixture, before }) => {
  const fresh: CustomVerification = { scheme: name };
  const learned: CustomVerification = { scheme: name, secret: given };

  test('before the handshake every delivery is refused', () => {
    expectRefused(verifySender(fresh, asReceived(fixture.signed(fixture.body, url, at), url, at)), before);
  });

  test('the secret given is offered, and answered as the sender takes it', () => {
    expect(handshakeOf(fresh, handshake(), url)).toEqual({ answer: answer(given), learnedSecret: given });
  });

  test('the secret kept, given again (the sender retrying), is answered as the first was and learns nothing', () => {
    expect(handshakeOf(learned, handshake(), url)).toEqual({ answer: answer(given) });
  });

  test('another, once the URL has a confirmed one, is answered and offered again as pending (R1)', () => {
    const second = madeSecret(`${name}-second`, 64);
    expect(handshakeOf(learned, handshake(second), url)).toEqual({ answer: answer(second), learnedSecret: second });
  });
});

test('Asana: only a POST with an X-Hook-Secret of visible ASCII up to 1024 characters is a handshake', () => {
  const fresh: CustomVerification = { scheme: 'asana' };
  expect(handshakeOf(fresh, { ...asanaHandshake(), method: 'GET' }, url)).toBeNull();
  expect(handshakeOf(fresh, asanaHandshake('a secret with spaces'), url)).toBeNull();
  expect(handshakeOf(fresh, asanaHandshake('x'.repeat(1025)), url)).toBeNull();
});

describe('Notion', () => {
  const fresh: CustomVerification = { scheme: 'notion' };
  const token = notionVerificationToken;

  test.each([
    ['a body with other fields', { verification_token: token, type: 'page.created' }],
    ['a token that is not a string', { verification_token: 42 }],
    ['an empty token', { verification_token: '' }],
    ['a token over 1024 characters', { verification_token: 'x'.repeat(1025) }],
    ['an array', [{ verification_token: token }]],
  ])('%s is no verification request', (_case, value) => {
    expect(handshakeOf(fresh, posted(JSON.stringify(value)), url)).toBeNull();
  });

  test('a body that is not JSON is none, and one past DEDUP_PARSE_BYTES is not parsed (R5)', () => {
    expect(handshakeOf(fresh, posted('verification_token=x'), url)).toBeNull();
    const json = String(notionHandshake().body);
    const large = posted(json.slice(0, -1) + ' '.repeat(DEDUP_PARSE_BYTES) + '}');
    const parse = jest.spyOn(JSON, 'parse');
    try {
      expect(handshakeOf(fresh, large, url)).toBeNull();
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  test('a retry is the same event id, though its attempt_number (and so its digest) differs', () => {
    const v: CustomVerification = { scheme: 'notion', secret: token };
    const idOf = (text: string) => senderDeliveryId(v, asReceived(notionSender.signed(text, url, at), url, at));
    expect(notionEvent(2)).not.toBe(notionEvent(1));
    expect(idOf(notionEvent(2))).toBe(idOf(notionEvent(1)));
    expect(idOf(JSON.stringify({ id: { n: 7 } }))).toBeUndefined();
  });
});
