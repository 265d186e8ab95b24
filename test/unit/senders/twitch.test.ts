/**
 * Twitch EventSub's check (src/domain/senders/twitch.ts), by Twitch's published algorithm: the
 * signature over id + timestamp + body, the 10-minute tolerance, the challenge, revocations, and
 * the message id dedup keys on.
 */
import { createHmac } from 'node:crypto';
import { SENDERS, type CustomVerification } from '../../../src/domain/senders/catalog';
import { MISMATCH, outside } from '../../../src/domain/senders/parts';
import { twitch as check } from '../../../src/domain/senders/families/twitch';
import { asReceived, type SentRequest } from '../../support/senders/fixture';
import {
  twitchChallenge,
  twitchRevocation,
  twitchSender,
  twitchSigned,
  twitchVerificationBody,
} from '../../support/senders/twitch';
import { asAnswer, reasonOf } from '../../support/senders/verdicts';

const url = 'https://hooks.example.com/api/webhooks/wh_1/tok_1';
const at = new Date();
const v = twitchSender.verification as unknown as CustomVerification;
const secret = twitchSender.verification.secret;
const TOLERANCE = SENDERS.twitch.toleranceSeconds!;
const verify = (sent: SentRequest, when = at) => check.verify(v, asReceived(sent, url, when));
const handshake = (sent: SentRequest) => check.handshake!.of(v, asReceived(sent, url, at));
const later = (seconds: number) => new Date(at.getTime() + seconds * 1000);
const withHeader = (sent: SentRequest, name: string, value: string | undefined): SentRequest => {
  const headers = { ...sent.headers };
  if (value === undefined) delete headers[name];
  else headers[name] = value;
  return { ...sent, headers };
};

it('accepts a notification signed as Twitch signs it (RFC 3339 timestamp with nanoseconds)', () => {
  const sent = twitchSender.signed(twitchSender.body, url, at);
  expect(sent.headers['Twitch-Eventsub-Message-Timestamp']).toMatch(/\.\d{9}Z$/);
  expect(verify(sent)).toEqual({ ok: true });
  expect(handshake(sent)).toBeNull();
});

it('reads any RFC 3339 timestamp: without fraction, with an offset', () => {
  const plain = at.toISOString().replace(/\.\d+Z$/, 'Z');
  const shifted = new Date(at.getTime() + 2 * 3600_000).toISOString().replace('Z', '+02:00');
  for (const timestamp of [plain, shifted]) {
    const id = 'message-1';
    const sent = twitchSigned(secret, twitchSender.body, at, 'notification', id);
    // Signed anew over the timestamp as written.
    const digest = createHmac('sha256', secret)
      .update(id + timestamp + twitchSender.body)
      .digest('hex');
    const rewritten = withHeader(
      withHeader(sent, 'Twitch-Eventsub-Message-Timestamp', timestamp),
      'Twitch-Eventsub-Message-Signature',
      `sha256=${digest}`,
    );
    expect(verify(rewritten)).toEqual({ ok: true });
  }
});

it('refuses a tampered body, another secret, and an id or timestamp changed on the way (both signed)', () => {
  const sent = twitchSender.signed(twitchSender.body, url, at);
  expect(verify({ ...sent, body: twitchSender.body.replace('"Ann"', '"Bob"') })).toEqual(MISMATCH);
  expect(verify(twitchSender.signedWrongly(twitchSender.body, url, at))).toEqual(MISMATCH);
  expect(verify(withHeader(sent, 'Twitch-Eventsub-Message-Id', 'another-id'))).toEqual(MISMATCH);
  const moved = sent.headers['Twitch-Eventsub-Message-Timestamp'].replace('123456Z', '123457Z');
  expect(verify(withHeader(sent, 'Twitch-Eventsub-Message-Timestamp', moved))).toEqual(MISMATCH);
});

it(`refuses a message older or newer than ${TOLERANCE} seconds (10 minutes, as Twitch says)`, () => {
  expect(TOLERANCE).toBe(600);
  const sent = twitchSender.signed(twitchSender.body, url, at);
  expect(verify(sent, later(TOLERANCE - 1))).toEqual({ ok: true });
  expect(verify(sent, later(TOLERANCE + 1))).toEqual(outside(TOLERANCE));
  expect(verify(sent, later(-TOLERANCE - 1))).toEqual(outside(TOLERANCE));
});

it('refuses a message without its signature, id or timestamp, or with a malformed one', () => {
  const sent = twitchSender.signed(twitchSender.body, url, at);
  for (const name of ['Signature', 'Id', 'Timestamp']) {
    const header = `Twitch-Eventsub-Message-${name}`;
    expect(reasonOf(verify(withHeader(sent, header, undefined)))).toBe(`missing ${header} header`);
  }
  const unix = withHeader(sent, 'Twitch-Eventsub-Message-Timestamp', String(Math.floor(at.getTime() / 1000)));
  expect(reasonOf(verify(unix))).toBe(
    'malformed Twitch-Eventsub-Message-Timestamp header: expected an RFC 3339 date-time',
  );
  const bare = sent.headers['Twitch-Eventsub-Message-Signature'].slice('sha256='.length);
  expect(reasonOf(verify(withHeader(sent, 'Twitch-Eventsub-Message-Signature', bare)))).toBe(
    'malformed Twitch-Eventsub-Message-Signature header: expected "sha256=" + hex digest of 32 bytes',
  );
});

it('answers the signed webhook_callback_verification with the raw challenge, as Twitch expects', () => {
  expect(check.handshake!.signed).toBe(true);
  const request = twitchSender.handshake!.request(url, at);
  expect(verify(request)).toEqual({ ok: true });
  const answered = handshake(request);
  expect(answered).toEqual({ answer: { status: 200, contentType: 'text/plain', body: twitchChallenge } });
  if (!answered || !('answer' in answered)) throw new Error('expected an answer');
  expect(() => twitchSender.handshake!.accepts(asAnswer(answered.answer))).not.toThrow();
  // One signed with another secret never gets that far.
  const forged = twitchSigned(
    'another-secret-of-twitch',
    twitchVerificationBody(),
    at,
    'webhook_callback_verification',
  );
  expect(verify(forged)).toEqual(MISMATCH);
});

it('refuses a webhook_callback_verification without a challenge it can echo', () => {
  for (const challenge of ['', 'x'.repeat(1025), 42]) {
    const body = JSON.stringify({ challenge, subscription: { status: 'webhook_callback_verification_pending' } });
    const sent = twitchSigned(secret, body, at, 'webhook_callback_verification');
    expect(handshake(sent)).toEqual({ refused: 'webhook_callback_verification without a challenge', status: 400 });
  }
});

it('answers a revocation 200, noting the status Twitch gives, and runs nothing', () => {
  const revocation = twitchRevocation(at);
  expect(verify(revocation)).toEqual({ ok: true });
  expect(handshake(revocation)).toEqual({
    answer: { status: 200 },
    note: 'Twitch revoked the subscription: authorization_revoked',
  });
  expect(handshake(twitchRevocation(at, 'notification_failures_exceeded'))).toMatchObject({
    note: 'Twitch revoked the subscription: notification_failures_exceeded',
  });
  const odd = twitchSigned(secret, JSON.stringify({ subscription: { status: '<b>x</b>' } }), at, 'revocation');
  expect(handshake(odd)).toMatchObject({ note: 'Twitch revoked the subscription: no status given' });
});

it('reads what a message is from its signed body, never from the unsigned type header', () => {
  const verification = JSON.stringify({
    challenge: 'c-1',
    subscription: { status: 'webhook_callback_verification_pending' },
  });
  const resent = twitchSigned(secret, verification, at, 'notification');
  expect(handshake(resent)).toEqual({ answer: { status: 200, contentType: 'text/plain', body: 'c-1' } });
  const notification = twitchSigned(secret, JSON.stringify({ subscription: {}, event: { user_name: 'ann' } }), at);
  const asRevocation = twitchSigned(secret, String(notification.body), at, 'revocation');
  expect(handshake(asRevocation)).toBeNull();
});

it('names the delivery by its signed message id, the same when Twitch sends it again', () => {
  const sent = twitchSigned(secret, twitchSender.body, at, 'notification', 'message-42');
  expect(check.deliveryId!(asReceived(sent, url, at))).toBe('message-42');
  const retried = withHeader(
    twitchSigned(secret, twitchSender.body, later(30), 'notification', 'message-42'),
    'Twitch-Eventsub-Message-Retry',
    '1',
  );
  expect(check.deliveryId!(asReceived(retried, url, later(30)))).toBe('message-42');
});

it('keeps the EventSub headers with each delivery', () => {
  expect(check.headersRead(v)).toEqual([
    'twitch-eventsub-message-id',
    'twitch-eventsub-message-timestamp',
    'twitch-eventsub-message-signature',
    'twitch-eventsub-message-type',
    'twitch-eventsub-message-retry',
    'twitch-eventsub-subscription-type',
    'twitch-eventsub-subscription-version',
  ]);
});
