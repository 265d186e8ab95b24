/** Dropbox's check (src/domain/senders/dropbox.ts), by Dropbox's published algorithm, and its verification GET. */
import { SENDERS, type CustomVerification } from '../../../src/domain/senders/catalog';
import {
  HANDSHAKE_CHALLENGE_MAX_CHARS,
  MISMATCH,
  type HandshakeAnswer,
  type Verdict,
} from '../../../src/domain/senders/parts';
import { checkOf } from '../../../src/domain/senders/checks';
const check = checkOf('dropbox');
import { asReceived, type Answer, type SentRequest } from '../../support/senders/fixture';
import { dropboxChallenge, dropboxSender } from '../../support/senders/dropbox';

const url = 'https://hooks.example.com/api/webhooks/wh_1/tok_1';
const at = new Date();
const v = dropboxSender.verification as unknown as CustomVerification;
const verify = (sent: SentRequest, when = at) => check.verify(v, asReceived(sent, url, when));
const handshake = (sent: SentRequest) => check.handshakes.unsigned!(v, asReceived(sent, url, at));
const reasonOf = (verdict: Verdict) => (verdict.ok ? 'accepted' : verdict.reason);
/** The answer as the receiver sends it (src/receiver/webhooks.ts adds nosniff to every handshake answer). */
const asAnswer = (answer: HandshakeAnswer, nosniff = true): Answer => ({
  status: answer.status,
  headers: {
    ...(nosniff ? { 'x-content-type-options': 'nosniff' } : {}),
    'content-type': `${answer.contentType ?? 'text/plain'}; charset=utf-8`,
  },
  body: answer.body ?? '',
});

it('accepts a notification signed as Dropbox signs it, at any time (no signed time)', () => {
  expect(verify(dropboxSender.signed(dropboxSender.body, url, at))).toEqual({ ok: true });
  expect(SENDERS.dropbox.toleranceSeconds).toBeNull();
  const late = new Date(at.getTime() + 86_400_000);
  expect(verify(dropboxSender.signed(dropboxSender.body, url, at), late)).toEqual({ ok: true });
});

it('refuses a tampered body and a signature under another App secret', () => {
  const sent = dropboxSender.signed(dropboxSender.body, url, at);
  expect(verify({ ...sent, body: dropboxSender.body.replace('12345', '12346') })).toEqual(MISMATCH);
  expect(verify(dropboxSender.signedWrongly(dropboxSender.body, url, at))).toEqual(MISMATCH);
});

it('refuses a request without X-Dropbox-Signature, or with one that is not a hex SHA-256 digest', () => {
  const sent = dropboxSender.signed(dropboxSender.body, url, at);
  expect(reasonOf(verify({ ...sent, headers: { 'Content-Type': 'application/json' } }))).toBe(
    'missing X-Dropbox-Signature header',
  );
  const prefixed = { ...sent, headers: { 'X-Dropbox-Signature': `sha256=${sent.headers['X-Dropbox-Signature']}` } };
  expect(reasonOf(verify(prefixed))).toBe('malformed X-Dropbox-Signature header: expected hex digest of 32 bytes');
});

it("answers Dropbox's verification GET with the challenge as text, before any signature", () => {
  expect(check.handshakes.unsigned).toBeDefined();
  expect(SENDERS.dropbox.handshake?.method).toBe('GET');
  const answered = handshake(dropboxSender.handshake!.request(url, at));
  expect(answered).toEqual({ answer: { status: 200, contentType: 'text/plain', body: dropboxChallenge } });
  if (!answered || !('answer' in answered)) throw new Error('expected an answer');
  expect(() => dropboxSender.handshake!.accepts(asAnswer(answered.answer))).not.toThrow();
  // Dropbox asks for nosniff, which the receiver adds to every handshake answer.
  expect(() => dropboxSender.handshake!.accepts(asAnswer(answered.answer, false))).toThrow(/nosniff/);
});

it('takes nothing else for a handshake: a POST, no, an empty or an overlong challenge', () => {
  const request = dropboxSender.handshake!.request(url, at);
  const others: SentRequest[] = [
    { ...request, method: 'POST' },
    { ...request, query: '' },
    { ...request, query: '?challenge=' },
    { ...request, query: `?challenge=${'x'.repeat(HANDSHAKE_CHALLENGE_MAX_CHARS + 1)}` },
    dropboxSender.signed(dropboxSender.body, url, at),
  ];
  for (const sent of others) expect(handshake(sent)).toBeNull();
});

it('names no delivery id (the same body is one delivery within the body window), and keeps the signature', () => {
  expect(check.deliveryId).toBeUndefined();
  expect(SENDERS.dropbox.bodyWindowSeconds).toBe(60);
  expect(check.headersRead(v)).toEqual(['x-dropbox-signature']);
});
