import { WebhooksHelper } from 'square';
import { SENDERS } from '../../../src/domain/senders/catalog';
import type { Verdict } from '../../../src/domain/senders/parts';
import { checkOf } from '../../../src/domain/senders/checks';
const square = checkOf('square');
import { asReceived, type SentRequest } from '../../support/senders/fixture';
import { squareSender, squareSignature } from '../../support/senders/square';

const url = 'https://robots.example.com/api/webhooks/square-test';
const at = new Date('2026-01-01T12:00:00Z');
const { verification, body } = squareSender;
const key = verification.secret;
const v = { scheme: 'square' as const, secret: key };

const verify = (sent: SentRequest, to = url, receivedAt = at) => square.verify(v, asReceived(sent, to, receivedAt));
const headerOf = (sent: SentRequest) => sent.headers['x-square-hmacsha256-signature'];

/** Square's SDK's verdict on a request to `notificationUrl`. */
const sdkAccepts = (sent: SentRequest, notificationUrl = url, requestBody = String(sent.body)) =>
  WebhooksHelper.verifySignature({ requestBody, signatureHeader: headerOf(sent), signatureKey: key, notificationUrl });

function reasonOf(verdict: Verdict): string {
  if (verdict.ok) throw new Error('expected a refusal');
  return verdict.reason;
}

/** A refusal's reason names headers and rules, never the key or a digest. */
function expectRefused(verdict: Verdict, reason: RegExp) {
  const text = reasonOf(verdict);
  expect(text).toMatch(reason);
  expect(text).not.toContain(key);
  expect(text).not.toMatch(/[A-Za-z0-9+/]{20}/);
}

describe('square', () => {
  test('Square signs no time: a capture verifies for ever (dedup by event_id stops it running twice)', () => {
    expect(SENDERS.square.toleranceSeconds).toBeNull();
    expect(squareSender.toleranceSeconds).toBeNull();
    const sent = squareSender.signed(body, url, at);
    expect(verify(sent, url, new Date(at.getTime() + 365 * 24 * 3600_000))).toEqual({ ok: true });
  });

  test("a delivery signed as the fixture signs is accepted by Square's SDK and by the check", async () => {
    const sent = squareSender.signed(body, url, at);
    expect(headerOf(sent)).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    await expect(sdkAccepts(sent)).resolves.toBe(true);
    expect(verify(sent)).toEqual({ ok: true });
  });

  test('a tampered body is refused, as the SDK refuses it', async () => {
    const sent = squareSender.signed(body, url, at);
    const tampered = body.replace('APPROVED', 'COMPLETED');
    await expect(sdkAccepts(sent, url, tampered)).resolves.toBe(false);
    expectRefused(verify({ ...sent, body: tampered }), /signature does not match/);
  });

  test('a delivery signed with another key is refused, as the SDK refuses it', async () => {
    const sent = squareSender.signedWrongly(body, url, at);
    await expect(sdkAccepts(sent)).resolves.toBe(false);
    expectRefused(verify(sent), /signature does not match/);
  });

  test('a delivery signed for another URL is refused, as the SDK refuses it', async () => {
    const sent = squareSender.signed(body, url, at);
    await expect(sdkAccepts(sent, url + '/other')).resolves.toBe(false);
    expectRefused(verify(sent, url + '/other'), /signature does not match/);
    // The query is part of the URL it signs.
    expectRefused(verify({ ...sent, query: '?a=1' }), /signature does not match/);
  });

  test('the URL with its query is signed as sent', async () => {
    const query = '?shop=ann&x=%3A';
    const sent: SentRequest = {
      ...squareSender.signed(body, url, at),
      query,
      headers: { 'x-square-hmacsha256-signature': squareSignature(key, url + query, body) },
    };
    await expect(sdkAccepts(sent, url + query)).resolves.toBe(true);
    expect(verify(sent)).toEqual({ ok: true });
  });

  test('a missing header is refused, named', () => {
    const sent = squareSender.signed(body, url, at);
    expectRefused(verify({ ...sent, headers: {} }), /^missing x-square-hmacsha256-signature header$/);
  });

  test('a header that is not a base64 SHA-256 digest is refused as malformed', () => {
    const sent = squareSender.signed(body, url, at);
    const hex = 'a'.repeat(64);
    expectRefused(verify({ ...sent, headers: { 'x-square-hmacsha256-signature': hex } }), /malformed/);
  });

  test("deliveryId is the body's event_id, else undefined", () => {
    const of = (text: string) => square.deliveryId!(asReceived({ ...squareSender.signed(text, url, at) }, url, at));
    expect(of(body)).toBe('e1b2c3d4-0000-4000-8000-000000000001');
    expect(of(JSON.stringify({ type: 'payment.created' }))).toBeUndefined();
    expect(of(JSON.stringify({ event_id: '' }))).toBeUndefined();
    expect(of('not json')).toBeUndefined();
  });

  test('headersRead is the signature header', () => {
    expect(square.headersRead(v)).toEqual(['x-square-hmacsha256-signature']);
  });
});
