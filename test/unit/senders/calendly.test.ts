import { SENDERS } from '../../../src/domain/senders/catalog';
import { checkOf } from '../../../src/domain/senders/checks';
const calendly = checkOf('calendly');
import type { Verdict } from '../../../src/domain/senders/parts';
import { calendlySender, calendlySignature } from '../../support/senders/calendly';
import { asReceived, type SentRequest } from '../../support/senders/fixture';

const url = 'https://robots.example.com/api/webhooks/calendly-test';
const at = new Date('2026-01-01T12:00:00Z');
const seconds = at.getTime() / 1000;
const { verification, body } = calendlySender;
const key = verification.secret;
const v = { scheme: 'calendly' as const, secret: key };

const verify = (sent: SentRequest, receivedAt = at) => calendly.verify(v, asReceived(sent, url, receivedAt));
const withSignature = (value: string): SentRequest => ({
  ...calendlySender.signed(body, url, at),
  headers: { 'Calendly-Webhook-Signature': value },
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

describe('calendly', () => {
  test("the tolerance is Calendly's 3 minutes", () => {
    expect(SENDERS.calendly.toleranceSeconds).toBe(180);
    expect(calendlySender.toleranceSeconds).toBe(180);
  });

  test('a delivery signed with the signing key is accepted', () => {
    expect(verify(calendlySender.signed(body, url, at))).toEqual({ ok: true });
  });

  test('the header is t=<seconds>,v1=<64 hex digits>', () => {
    const header = calendlySender.signed(body, url, at).headers['Calendly-Webhook-Signature'];
    expect(header).toMatch(new RegExp(`^t=${seconds},v1=[0-9a-f]{64}$`));
  });

  test('a tampered body is refused', () => {
    const sent = calendlySender.signed(body, url, at);
    expectRefused(verify({ ...sent, body: body.replace('Ann', 'Bob') }), /signature does not match/);
  });

  test('a delivery signed with another key is refused', () => {
    expectRefused(verify(calendlySender.signedWrongly(body, url, at)), /signature does not match/);
  });

  test('a missing header is refused, named', () => {
    const sent = calendlySender.signed(body, url, at);
    expectRefused(verify({ ...sent, headers: {} }), /^missing Calendly-Webhook-Signature header$/);
  });

  test.each([
    ['no v1', `t=${seconds}`],
    ['no t', 'v1=' + 'a'.repeat(64)],
    ['a t that is not unix seconds', `t=2026-01-01,v1=${'a'.repeat(64)}`],
    ['no = at all', 'signature'],
  ])('a header with %s is refused as malformed', (_case, value) => {
    expectRefused(verify(withSignature(value)), /^malformed Calendly-Webhook-Signature header/);
  });

  test('a v1 that is not a 32-byte hex digest is refused as malformed', () => {
    expectRefused(verify(withSignature(`t=${seconds},v1=abc`)), /malformed Calendly-Webhook-Signature v1/);
  });

  test('a signature older or newer than the tolerance is refused; within it, accepted', () => {
    const tolerance = SENDERS.calendly.toleranceSeconds!;
    const sent = calendlySender.signed(body, url, at);
    expect(verify(sent, new Date(at.getTime() + tolerance * 1000))).toEqual({ ok: true });
    expectRefused(verify(sent, new Date(at.getTime() + (tolerance + 1) * 1000)), /180-second tolerance/);
    expectRefused(verify(sent, new Date(at.getTime() - (tolerance + 1) * 1000)), /tolerance/);
  });

  test('a signed t cannot be moved: another t with the same v1 is refused', () => {
    const v1 = calendlySignature(key, body, seconds).split('v1=')[1];
    expectRefused(verify(withSignature(`t=${seconds + 1},v1=${v1}`)), /signature does not match/);
  });

  test('any of several v1 may match, in either order', () => {
    const good = calendlySignature(key, body, seconds).split('v1=')[1];
    const bad = calendlySignature('another-key-of-some-length', body, seconds).split('v1=')[1];
    expect(verify(withSignature(`t=${seconds},v1=${bad},v1=${good}`))).toEqual({ ok: true });
    expect(verify(withSignature(`t=${seconds},v1=${good},v1=${bad}`))).toEqual({ ok: true });
    expectRefused(verify(withSignature(`t=${seconds},v1=${bad},v1=zz`)), /signature does not match/);
  });

  test('spaces around the parts are tolerated', () => {
    const [t, v1] = calendlySignature(key, body, seconds).split(',');
    expect(verify(withSignature(`${t}, ${v1}`))).toEqual({ ok: true });
  });

  test('the body, not its parsed form, is signed', () => {
    const spaced = JSON.stringify(JSON.parse(body), null, 2);
    const sent = calendlySender.signed(spaced, url, at);
    expect(verify(sent)).toEqual({ ok: true });
    expect(verify({ ...sent, body })).toMatchObject({ ok: false });
  });

  test('Calendly signs no delivery id: deliveries are told apart by the body', () => {
    expect(calendly.deliveryId).toBeUndefined();
  });

  test('headersRead is the signature header', () => {
    expect(calendly.headersRead(v)).toEqual(['calendly-webhook-signature']);
  });
});
