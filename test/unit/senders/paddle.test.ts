import { Paddle, WebhooksValidator } from '@paddle/paddle-node-sdk';
import { SENDERS } from '../../../src/domain/senders/catalog';
import type { Verdict } from '../../../src/domain/senders/parts';
import { checkOf } from '../../../src/domain/senders/checks';
const paddle = checkOf('paddle');
import { asReceived, type SentRequest } from '../../support/senders/fixture';
import { paddleDigest, paddleSender, paddleSignature } from '../../support/senders/paddle';

// Paddle's SDK checks a signature against its own clock: these tests sign now, and are received now.
const sdk = new Paddle('pdl_sdbx_apikey_' + 'x'.repeat(20));
const url = 'https://robots.example.com/api/webhooks/paddle-test';
const { verification, body } = paddleSender;
const key = verification.secret;
const v = { scheme: 'paddle' as const, secret: key };
const otherKey = 'pdl_ntfset_01other_' + 'y'.repeat(32);

const nowSeconds = () => Math.floor(Date.now() / 1000);
const verify = (sent: SentRequest, receivedAt = new Date()) => paddle.verify(v, asReceived(sent, url, receivedAt));
const headerOf = (sent: SentRequest) => sent.headers['Paddle-Signature'];
const sdkAccepts = (sentBody: string, header: string) => sdk.webhooks.isSignatureValid(sentBody, key, header);
const withSignature = (value: string): SentRequest => ({
  ...paddleSender.signed(body, url, new Date()),
  headers: { 'Paddle-Signature': value },
});

function reasonOf(verdict: Verdict): string {
  if (verdict.ok) throw new Error('expected a refusal');
  return verdict.reason;
}

/** A refusal's reason names headers and rules, never the key or a digest. */
function expectRefused(verdict: Verdict, reason: RegExp) {
  const text = reasonOf(verdict);
  expect(text).toMatch(reason);
  expect(text).not.toContain(key);
  expect(text).not.toMatch(/[0-9a-f]{16}/);
}

describe('paddle', () => {
  test("the tolerance is the SDK's: 5 seconds", () => {
    expect(SENDERS.paddle.toleranceSeconds).toBe(WebhooksValidator['MAX_VALID_TIME_DIFFERENCE']);
    expect(paddleSender.toleranceSeconds).toBe(5);
  });

  test("a delivery signed as the fixture signs is accepted by Paddle's SDK and by the check", async () => {
    const sent = paddleSender.signed(body, url, new Date());
    expect(headerOf(sent)).toMatch(/^ts=\d+;h1=[0-9a-f]{64}$/);
    await expect(sdkAccepts(body, headerOf(sent))).resolves.toBe(true);
    expect(verify(sent)).toEqual({ ok: true });
  });

  test("the SDK's unmarshal reads the notification_id the check takes as the delivery's id", async () => {
    const sent = paddleSender.signed(body, url, new Date());
    const event = await sdk.webhooks.unmarshal(body, key, headerOf(sent));
    expect(event.notificationId).toBe('ntf_01testnotification');
    expect(paddle.deliveryId!(asReceived(sent, url, new Date()))).toBe(event.notificationId);
  });

  test('a tampered body is refused, as the SDK refuses it', async () => {
    const sent = paddleSender.signed(body, url, new Date());
    const tampered = body.replace('Ann', 'Bob');
    await expect(sdkAccepts(tampered, headerOf(sent))).resolves.toBe(false);
    expectRefused(verify({ ...sent, body: tampered }), /signature does not match/);
  });

  test('a delivery signed with another key is refused, as the SDK refuses it', async () => {
    const sent = paddleSender.signedWrongly(body, url, new Date());
    await expect(sdkAccepts(body, headerOf(sent))).resolves.toBe(false);
    expectRefused(verify(sent), /signature does not match/);
  });

  test('a signature older than the tolerance is refused, as the SDK refuses it', async () => {
    const old = new Date(Date.now() - 7_000);
    const sent = paddleSender.signed(body, url, old);
    await expect(sdkAccepts(body, headerOf(sent))).resolves.toBe(false);
    expectRefused(verify(sent), /5-second tolerance/);
  });

  test('within the tolerance of arrival it is accepted; beyond it, either way, refused', () => {
    const at = new Date('2026-01-01T12:00:00Z');
    const sent = paddleSender.signed(body, url, at);
    expect(verify(sent, new Date(at.getTime() + 5_000))).toEqual({ ok: true });
    expectRefused(verify(sent, new Date(at.getTime() + 6_000)), /tolerance/);
    expectRefused(verify(sent, new Date(at.getTime() - 6_000)), /tolerance/);
  });

  test('during a rotation any h1 may match: all are compared', async () => {
    const ts = nowSeconds();
    const rotating = paddleSignature([otherKey, key], body, ts);
    // The SDK reads the last h1 only.
    await expect(sdkAccepts(body, rotating)).resolves.toBe(true);
    expect(verify(withSignature(rotating))).toEqual({ ok: true });
    expect(verify(withSignature(paddleSignature([key, otherKey], body, ts)))).toEqual({ ok: true });
    expectRefused(verify(withSignature(`ts=${ts};h1=${paddleDigest(otherKey, body, ts)};h1=zz`)), /does not match/);
  });

  test('a signed ts cannot be moved: another ts with the same h1 is refused, as the SDK refuses it', async () => {
    const ts = nowSeconds();
    const moved = `ts=${ts - 1};h1=${paddleDigest(key, body, ts)}`;
    await expect(sdkAccepts(body, moved)).resolves.toBe(false);
    expectRefused(verify(withSignature(moved)), /signature does not match/);
  });

  test('a missing header is refused, named', () => {
    const sent = paddleSender.signed(body, url, new Date());
    expectRefused(verify({ ...sent, headers: {} }), /^missing Paddle-Signature header$/);
  });

  test.each([
    ['no h1', () => `ts=${nowSeconds()}`],
    ['no ts', () => `h1=${'a'.repeat(64)}`],
    ['a ts that is not unix seconds', () => `ts=now;h1=${'a'.repeat(64)}`],
    ['commas for semicolons', () => `ts=${nowSeconds()},h1=${'a'.repeat(64)}`],
  ])('a header with %s is refused as malformed', (_case, value) => {
    expectRefused(verify(withSignature(value())), /^malformed Paddle-Signature header/);
  });

  test('an h1 that is not a 32-byte hex digest is refused as malformed', () => {
    expectRefused(verify(withSignature(`ts=${nowSeconds()};h1=abc`)), /malformed Paddle-Signature h1/);
  });

  test("deliveryId is the body's notification_id, else undefined", () => {
    const of = (text: string) => paddle.deliveryId!(asReceived({ ...withSignature(''), body: text }, url, new Date()));
    expect(of(body)).toBe('ntf_01testnotification');
    expect(of(JSON.stringify({ event_id: 'evt_1' }))).toBeUndefined();
    expect(of(JSON.stringify({ notification_id: [7] }))).toBeUndefined();
    expect(of('not json')).toBeUndefined();
  });

  test('headersRead is the signature header', () => {
    expect(paddle.headersRead(v)).toEqual(['paddle-signature']);
  });
});
