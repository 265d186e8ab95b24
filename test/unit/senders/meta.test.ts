/** Meta's check (src/domain/senders/meta.ts): its signature by Meta's published algorithm, its verification GET. */
import { SENDERS, type CustomVerification } from '../../../src/domain/senders/catalog';
import {
  HANDSHAKE_CHALLENGE_MAX_CHARS,
  MISMATCH,
  type HandshakeAnswer,
  type Verdict,
} from '../../../src/domain/senders/parts';
import { checkOf } from '../../../src/domain/senders/checks';
const check = checkOf('meta');
import { asReceived, type Answer, type SentRequest } from '../../support/senders/fixture';
import { metaChallenge, metaSender, metaVerification, metaVerifyToken } from '../../support/senders/meta';

const url = 'https://hooks.example.com/api/webhooks/wh_1/tok_1';
const at = new Date();
const v = metaSender.verification as unknown as CustomVerification;
const verify = (sent: SentRequest, when = at) => check.verify(v, asReceived(sent, url, when));
const handshake = (sent: SentRequest) => check.handshakes.unsigned!(v, asReceived(sent, url, at));
const reasonOf = (verdict: Verdict) => (verdict.ok ? 'accepted' : verdict.reason);
/** The answer as the receiver sends it (src/receiver/webhooks.ts): nosniff, a Koa content type. */
const asAnswer = (answer: HandshakeAnswer): Answer => ({
  status: answer.status,
  headers: {
    ...answer.headers,
    'x-content-type-options': 'nosniff',
    'content-type': `${answer.contentType ?? 'text/plain'}; charset=utf-8`,
  },
  body: answer.body ?? '',
});

it('accepts a body signed as Meta signs it, at any time (no signed time)', () => {
  expect(verify(metaSender.signed(metaSender.body, url, at))).toEqual({ ok: true });
  expect(SENDERS.meta.toleranceSeconds).toBeNull();
  expect(verify(metaSender.signed(metaSender.body, url, at), new Date(at.getTime() + 86_400_000))).toEqual({
    ok: true,
  });
});

it('refuses a tampered body and a signature under another App Secret', () => {
  const sent = metaSender.signed(metaSender.body, url, at);
  expect(verify({ ...sent, body: metaSender.body.replace('Ann', 'Bob') })).toEqual(MISMATCH);
  expect(verify(metaSender.signedWrongly(metaSender.body, url, at))).toEqual(MISMATCH);
});

it('refuses a request without X-Hub-Signature-256 (X-Hub-Signature, SHA-1, is not enough), or a malformed one', () => {
  const sent = metaSender.signed(metaSender.body, url, at);
  const sha1 = {
    'Content-Type': 'application/json',
    'X-Hub-Signature': 'sha1=0000000000000000000000000000000000000000',
  };
  expect(reasonOf(verify({ ...sent, headers: sha1 }))).toBe('missing X-Hub-Signature-256 header');
  const bare = {
    ...sent,
    headers: { 'X-Hub-Signature-256': sent.headers['X-Hub-Signature-256'].slice('sha256='.length) },
  };
  expect(reasonOf(verify(bare))).toBe(
    'malformed X-Hub-Signature-256 header: expected "sha256=" + hex digest of 32 bytes',
  );
});

it("answers Meta's verification GET with the challenge, as Meta expects, before any signature", () => {
  expect(check.handshakes.unsigned).toBeDefined();
  expect(SENDERS.meta.handshake?.method).toBe('GET');
  const answered = handshake(metaSender.handshake!.request(url, at));
  expect(answered).toEqual({ answer: { status: 200, contentType: 'text/plain', body: metaChallenge } });
  if (!answered || !('answer' in answered)) throw new Error('expected an answer');
  expect(() => metaSender.handshake!.accepts(asAnswer(answered.answer))).not.toThrow();
  // A challenge Meta did not send is not what it accepts.
  expect(() => metaSender.handshake!.accepts(asAnswer({ ...answered.answer, body: '42' }))).toThrow();
});

it('refuses the verification GET with 403 when the verify token does not match or is missing', () => {
  expect(handshake(metaVerification('not-the-verify-token-at-all'))).toEqual({
    refused: 'hub.verify_token does not match',
    status: 403,
  });
  expect(handshake(metaVerification(metaVerifyToken.slice(0, -1)))).toEqual({
    refused: 'hub.verify_token does not match',
    status: 403,
  });
  const tokenless = {
    method: 'GET' as const,
    query: `?hub.mode=subscribe&hub.challenge=${metaChallenge}`,
    headers: {},
    body: '',
  };
  expect(handshake(tokenless)).toEqual({ refused: 'missing hub.verify_token', status: 403 });
});

it('takes nothing else for a handshake: another mode, no or an overlong challenge, a POST', () => {
  const good = metaVerification(metaVerifyToken);
  const others: SentRequest[] = [
    { ...good, query: good.query.replace('hub.mode=subscribe', 'hub.mode=unsubscribe') },
    { ...good, query: good.query.replace(`hub.challenge=${metaChallenge}`, 'hub.challenge=') },
    metaVerification(metaVerifyToken, 'x'.repeat(HANDSHAKE_CHALLENGE_MAX_CHARS + 1)),
    { ...good, query: `?hub.verify_token=${metaVerifyToken}` },
    { ...good, method: 'POST' },
    metaSender.signed(metaSender.body, url, at),
  ];
  for (const sent of others) expect(handshake(sent)).toBeNull();
});

it('names no delivery id, and keeps the signature header', () => {
  expect(check.deliveryId).toBeUndefined();
  expect(check.headersRead(v)).toEqual(['x-hub-signature-256']);
});
