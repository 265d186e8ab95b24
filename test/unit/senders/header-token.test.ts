import type { Verdict } from '../../../src/domain/senders/parts';
import { checkOf } from '../../../src/domain/senders/checks';
const headerToken = checkOf('header-token');
import { asReceived, type SentRequest } from '../../support/senders/fixture';
import { HEADER, headerTokenSender } from '../../support/senders/header-token';

const url = 'https://robots.example.com/api/webhooks/header-token-test';
const at = new Date('2026-01-01T12:00:00Z');
const { verification, body } = headerTokenSender;
const value = verification.secret;
const v = { scheme: 'header-token' as const, header: HEADER, secret: value };

const verify = (sent: SentRequest, settings = v) => headerToken.verify(settings, asReceived(sent, url, at));
const withHeaders = (headers: Record<string, string>): SentRequest => ({
  ...headerTokenSender.signed(body, url, at),
  headers,
});
const deliveryIdOf = (headers: Record<string, string>) =>
  headerToken.deliveryId!(asReceived(withHeaders({ [HEADER]: value, ...headers }), url, at));

function reasonOf(verdict: Verdict): string {
  if (verdict.ok) throw new Error('expected a refusal');
  return verdict.reason;
}

/** A refusal's reason names the header, never the value set or the one sent. */
function expectRefused(verdict: Verdict, reason: RegExp, sent = '') {
  const text = reasonOf(verdict);
  expect(text).toMatch(reason);
  expect(text).not.toContain(value);
  if (sent) expect(text).not.toContain(sent);
}

describe('header-token', () => {
  test('the header with the value set is accepted, its name in any case', () => {
    expect(verify(headerTokenSender.signed(body, url, at))).toEqual({ ok: true });
    expect(verify(withHeaders({ [HEADER.toLowerCase()]: value }))).toEqual({ ok: true });
    expect(verify(withHeaders({ [HEADER]: value }), { ...v, header: HEADER.toUpperCase() })).toEqual({ ok: true });
  });

  test('another value is refused, the header named', () => {
    const wrong = headerTokenSender.signedWrongly(body, url, at);
    expectRefused(verify(wrong), /^X-Webhook-Token header does not equal the Header value/, wrong.headers[HEADER]);
  });

  test('a value that only begins or ends like it is refused', () => {
    expectRefused(verify(withHeaders({ [HEADER]: value.slice(0, -1) })), /does not equal the Header value/);
    expectRefused(verify(withHeaders({ [HEADER]: value + 'x' })), /does not equal the Header value/);
  });

  test('a missing or empty header is refused, named', () => {
    expectRefused(verify(withHeaders({})), /^missing X-Webhook-Token header$/);
    expectRefused(verify(withHeaders({ [HEADER]: '' })), /^missing X-Webhook-Token header$/);
    expectRefused(verify(withHeaders({ Authorization: value })), /^missing X-Webhook-Token header$/);
  });

  test('the body is not part of it: any body with the header is accepted (nothing is signed)', () => {
    const sent = headerTokenSender.signed(body, url, at);
    expect(verify({ ...sent, body: '{"other":true}' })).toEqual({ ok: true });
  });

  test('deliveryId is Idempotency-Key, else webhook-id, else undefined', () => {
    expect(deliveryIdOf({ 'Idempotency-Key': 'k1', 'webhook-id': 'w1' })).toBe('k1');
    expect(deliveryIdOf({ 'webhook-id': 'w1' })).toBe('w1');
    expect(deliveryIdOf({})).toBeUndefined();
  });

  test('headersRead is the id headers, never the credential header (its value is the secret)', () => {
    expect(headerToken.headersRead(v)).toEqual(['idempotency-key', 'webhook-id']);
    expect(headerToken.headersRead(v)).not.toContain(HEADER.toLowerCase());
    expect(headerToken.headersRead({ ...v, header: 'Webhook-ID' })).toEqual(['idempotency-key']);
  });
});
