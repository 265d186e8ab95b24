import Stripe from 'stripe';
import { verifySender } from '../../src/domain/senders/checks';
import { stripe as stripeSender } from '../../src/domain/senders/catalog/stripe';

const SIGNATURE_TOLERANCE_SECONDS = stripeSender.toleranceSeconds;
/** The payment provider connection's check of a request with this header and body. */
const verifyStripeSignature = (secret: string, header: string | undefined, body: Buffer, receivedAtMs: number) =>
  verifySender(
    { scheme: 'stripe', secret },
    {
      method: 'POST',
      publicUrl: 'https://hooks.example/api/webhooks/stripe/t',
      query: new URLSearchParams(),
      headers: header === undefined ? {} : { 'stripe-signature': header },
      body,
      receivedAtMs,
    },
  );

const stripe = new Stripe('sk_test_x');
// Built at runtime so that nothing here looks like a real signing secret.
const secret = 'whsec_' + 'test'.repeat(4);
const otherSecret = 'whsec_' + 'other'.repeat(4);

const payload = JSON.stringify({ id: 'evt_test_1', object: 'event', type: 'charge.succeeded' });
const rawBody = Buffer.from(payload, 'utf8');
const timestamp = 1_700_000_000;
const receivedAtMs = timestamp * 1000;

function header(opts: { secret?: string; payload?: string; timestamp?: number; scheme?: string } = {}): string {
  return stripe.webhooks.generateTestHeaderString({
    payload: opts.payload ?? payload,
    secret: opts.secret ?? secret,
    timestamp: opts.timestamp ?? timestamp,
    ...(opts.scheme ? { scheme: opts.scheme } : {}),
  });
}

function v1Of(h: string): string {
  const entry = h.split(',').find((part) => part.startsWith('v1='));
  if (!entry) throw new Error(`no v1 in ${h}`);
  return entry.slice('v1='.length);
}

function reasonOf(verdict: ReturnType<typeof verifyStripeSignature>): string {
  if (verdict.ok) throw new Error('expected a rejected signature');
  return verdict.reason;
}

describe('verifyStripeSignature', () => {
  test('the tolerance is five minutes', () => {
    expect(SIGNATURE_TOLERANCE_SECONDS).toBe(300);
  });

  test('a header made by the stripe package is valid', () => {
    expect(verifyStripeSignature(secret, header(), rawBody, receivedAtMs)).toEqual({ ok: true });
  });

  test('a wrong secret is rejected with a reason', () => {
    const verdict = verifyStripeSignature(secret, header({ secret: otherSecret }), rawBody, receivedAtMs);
    expect(verdict.ok).toBe(false);
    expect(reasonOf(verdict)).toMatch(/signature/);
  });

  test('an altered body is rejected', () => {
    const altered = Buffer.from(payload.replace('charge.succeeded', 'charge.refunded'), 'utf8');
    expect(verifyStripeSignature(secret, header(), altered, receivedAtMs).ok).toBe(false);
  });

  test('a timestamp 6 minutes before receipt is rejected', () => {
    const verdict = verifyStripeSignature(secret, header({ timestamp: timestamp - 6 * 60 }), rawBody, receivedAtMs);
    expect(verdict.ok).toBe(false);
    expect(reasonOf(verdict)).toMatch(/tolerance/);
  });

  test('a timestamp 4 minutes before receipt is accepted', () => {
    expect(verifyStripeSignature(secret, header({ timestamp: timestamp - 4 * 60 }), rawBody, receivedAtMs)).toEqual({
      ok: true,
    });
  });

  test('a timestamp 6 minutes after receipt is rejected', () => {
    expect(verifyStripeSignature(secret, header({ timestamp: timestamp + 6 * 60 }), rawBody, receivedAtMs).ok).toBe(
      false,
    );
  });

  test('a header whose timestamp was changed after signing is rejected', () => {
    const signed = header();
    const moved = signed.replace(`t=${timestamp}`, `t=${timestamp + 1}`);
    expect(verifyStripeSignature(secret, moved, rawBody, receivedAtMs).ok).toBe(false);
  });

  test('several v1 entries where one matches are accepted', () => {
    const good = v1Of(header());
    const bad = v1Of(header({ secret: otherSecret }));
    const h = `t=${timestamp},v1=${bad},v1=${good},v0=${bad}`;
    expect(verifyStripeSignature(secret, h, rawBody, receivedAtMs)).toEqual({ ok: true });
  });

  test('several v1 entries where none matches are rejected', () => {
    const bad1 = v1Of(header({ secret: otherSecret }));
    const bad2 = v1Of(header({ payload: '{}' }));
    expect(verifyStripeSignature(secret, `t=${timestamp},v1=${bad1},v1=${bad2}`, rawBody, receivedAtMs).ok).toBe(false);
  });

  test('spaces around entries are tolerated', () => {
    const h = `t=${timestamp}, v1=${v1Of(header())}`;
    expect(verifyStripeSignature(secret, h, rawBody, receivedAtMs)).toEqual({ ok: true });
  });

  test('a malformed v1 value is ignored', () => {
    const verdict = verifyStripeSignature(secret, `t=${timestamp},v1=zz`, rawBody, receivedAtMs);
    expect(reasonOf(verdict)).toMatch(/malformed Stripe-Signature v1/);
  });

  describe('malformed headers have distinct reasons', () => {
    const missing = verifyStripeSignature(secret, undefined, rawBody, receivedAtMs);
    const noTimestamp = verifyStripeSignature(secret, `v1=${v1Of(header())}`, rawBody, receivedAtMs);
    const noV1 = verifyStripeSignature(secret, header({ scheme: 'v0' }), rawBody, receivedAtMs);

    test('a missing header is rejected', () => {
      expect(missing.ok).toBe(false);
      expect(reasonOf(missing)).toMatch(/missing/i);
    });

    test('an empty header is rejected like a missing one', () => {
      expect(verifyStripeSignature(secret, '', rawBody, receivedAtMs)).toEqual(missing);
    });

    test('a header without t is rejected', () => {
      expect(noTimestamp.ok).toBe(false);
      expect(reasonOf(noTimestamp)).toMatch(/no t=/);
    });

    test('a header without v1 is rejected', () => {
      expect(noV1.ok).toBe(false);
      expect(reasonOf(noV1)).toMatch(/v1/);
    });

    test('the three reasons differ from each other and from a bad signature', () => {
      const badSignature = verifyStripeSignature(secret, header({ secret: otherSecret }), rawBody, receivedAtMs);
      const reasons = [missing, noTimestamp, noV1, badSignature].map(reasonOf);
      expect(new Set(reasons).size).toBe(4);
    });
  });
});
