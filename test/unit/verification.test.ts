/**
 * The first senders of the catalog (src/domain/senders/: github, slack, shopify, standard-webhooks,
 * hmac): the providers' own published examples where they give one, the `standardwebhooks` package's
 * own signing, and node's crypto for the rest. The other senders' tests are in ./senders/.
 */
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { headersRead, verifySender } from '../../src/domain/senders/checks';
import { SENDERS, type CustomVerification } from '../../src/domain/senders/catalog';
import type { Verdict } from '../../src/domain/senders/parts';
import type { RequestHeaders } from '../../src/domain/headers';

const SIGNED_TIMESTAMP_TOLERANCE_SECONDS = SENDERS.slack.toleranceSeconds;

/** The check of a POST with these headers and body, received at `receivedAtMs`. */
const verifyCustomSignature = (v: CustomVerification, headers: RequestHeaders, raw: Buffer, receivedAtMs: number) =>
  verifySender(v, {
    method: 'POST',
    publicUrl: 'https://hooks.example.com/api/webhooks/custom:1/t',
    query: new URLSearchParams(),
    headers,
    body: raw,
    receivedAtMs,
  });

const body = (text: string) => Buffer.from(text, 'utf8');
/** The same body with its last byte changed by one. */
const oneByteOff = (text: string) => {
  const b = body(text);
  b[b.length - 1] ^= 1;
  return b;
};

function reasonOf(verdict: Verdict): string {
  if (verdict.ok) throw new Error('expected a rejected signature');
  return verdict.reason;
}

const MISMATCH = { ok: false, reason: 'signature does not match the signing secret' };
const OUTSIDE = { ok: false, reason: 'timestamp outside the 300-second tolerance' };

test("Slack's and Standard Webhooks' signed-timestamp tolerance is five minutes", () => {
  expect(SIGNED_TIMESTAMP_TOLERANCE_SECONDS).toBe(300);
  expect(SENDERS['standard-webhooks'].toleranceSeconds).toBe(300);
});

describe('github', () => {
  // https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries
  // ("Testing the webhook payload validation": secret, payload and the expected X-Hub-Signature-256).
  const v: CustomVerification = { scheme: 'github', secret: "It's a Secret to Everybody" };
  const payload = 'Hello, World!';
  const signature = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';
  const at = Date.now();

  test("accepts the docs' example", () => {
    expect(verifyCustomSignature(v, { 'x-hub-signature-256': signature }, body(payload), at)).toEqual({ ok: true });
  });

  test('refuses it with another secret or over a body one byte off', () => {
    const other: CustomVerification = { ...v, secret: "It's a Secret to Nobody" };
    expect(verifyCustomSignature(other, { 'x-hub-signature-256': signature }, body(payload), at)).toEqual(MISMATCH);
    expect(verifyCustomSignature(v, { 'x-hub-signature-256': signature }, oneByteOff(payload), at)).toEqual(MISMATCH);
  });

  test('refuses a missing or malformed header, naming it', () => {
    expect(verifyCustomSignature(v, {}, body(payload), at)).toEqual({
      ok: false,
      reason: 'missing X-Hub-Signature-256 header',
    });
    for (const bad of [signature.slice('sha256='.length), signature.slice(0, -2), `${signature.slice(0, -1)}g`]) {
      const reason = reasonOf(verifyCustomSignature(v, { 'x-hub-signature-256': bad }, body(payload), at));
      expect(reason).toMatch(/^malformed X-Hub-Signature-256 header/);
    }
  });

  test('takes the first value of a header sent twice', () => {
    const twice = { 'x-hub-signature-256': [signature, 'sha256=' + '0'.repeat(64)] };
    expect(verifyCustomSignature(v, twice, body(payload), at)).toEqual({ ok: true });
    const reversed = { 'x-hub-signature-256': ['sha256=' + '0'.repeat(64), signature] };
    expect(verifyCustomSignature(v, reversed, body(payload), at)).toEqual(MISMATCH);
  });
});

describe('slack', () => {
  // https://api.slack.com/authentication/verifying-requests-from-slack (the worked example: signing secret,
  // X-Slack-Request-Timestamp, the slash-command request body and the expected X-Slack-Signature).
  const v: CustomVerification = { scheme: 'slack', secret: '8f742231b10e8888abcd99yyyzzz85a5' };
  const request =
    'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V' +
    '&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=' +
    '&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN' +
    '&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
  const headers = {
    'x-slack-request-timestamp': '1531420618',
    'x-slack-signature': 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
  };
  const signedAt = 1531420618 * 1000;

  test("accepts the docs' example received at its timestamp, and up to five minutes either side", () => {
    expect(verifyCustomSignature(v, headers, body(request), signedAt)).toEqual({ ok: true });
    expect(verifyCustomSignature(v, headers, body(request), signedAt + 299_000)).toEqual({ ok: true });
    expect(verifyCustomSignature(v, headers, body(request), signedAt - 299_000)).toEqual({ ok: true });
  });

  test('refuses the same request replayed over five minutes later', () => {
    expect(verifyCustomSignature(v, headers, body(request), signedAt + 301_000)).toEqual(OUTSIDE);
    expect(verifyCustomSignature(v, headers, body(request), Date.now())).toEqual(OUTSIDE);
  });

  test('refuses another secret, a body one byte off, and a timestamp moved to look fresh', () => {
    const other: CustomVerification = { scheme: 'slack', secret: '8f742231b10e8888abcd99yyyzzz85a6' };
    expect(verifyCustomSignature(other, headers, body(request), signedAt)).toEqual(MISMATCH);
    expect(verifyCustomSignature(v, headers, oneByteOff(request), signedAt)).toEqual(MISMATCH);
    const moved = { ...headers, 'x-slack-request-timestamp': '1531420919' };
    expect(verifyCustomSignature(v, moved, body(request), 1531420919 * 1000)).toEqual(MISMATCH);
  });

  test('refuses a missing or malformed header, naming it', () => {
    const { 'x-slack-signature': signature, 'x-slack-request-timestamp': timestamp } = headers;
    expect(verifyCustomSignature(v, { 'x-slack-signature': signature }, body(request), signedAt)).toEqual({
      ok: false,
      reason: 'missing X-Slack-Request-Timestamp header',
    });
    expect(verifyCustomSignature(v, { 'x-slack-request-timestamp': timestamp }, body(request), signedAt)).toEqual({
      ok: false,
      reason: 'missing X-Slack-Signature header',
    });
    const badTime = { ...headers, 'x-slack-request-timestamp': '1531420618.5' };
    expect(reasonOf(verifyCustomSignature(v, badTime, body(request), signedAt))).toMatch(
      /^malformed X-Slack-Request-Timestamp header/,
    );
    const badSignature = { ...headers, 'x-slack-signature': signature.replace('v0=', 'v1=') };
    expect(reasonOf(verifyCustomSignature(v, badSignature, body(request), signedAt))).toMatch(
      /^malformed X-Slack-Signature header/,
    );
  });
});

describe('shopify', () => {
  // Shopify's webhook docs (shopify.dev/docs/apps/build/webhooks, "Verify webhooks") publish the algorithm
  // (base64 HMAC-SHA256 of the raw body, keyed with the app's client secret, in X-Shopify-Hmac-Sha256) but no
  // example values, so the expected value is computed here with node's crypto.
  const secret = 'shopify-client-secret-for-tests';
  const v: CustomVerification = { scheme: 'shopify', secret };
  const payload = '{"id":820982911946154508,"email":"jon@example.com"}';
  const signature = createHmac('sha256', secret).update(payload).digest('base64');
  const at = Date.now();

  test('accepts the base64 digest of the raw body', () => {
    expect(verifyCustomSignature(v, { 'x-shopify-hmac-sha256': signature }, body(payload), at)).toEqual({ ok: true });
  });

  test('refuses another secret or a body one byte off', () => {
    const other: CustomVerification = { scheme: 'shopify', secret: secret + '!' };
    const signed = { 'x-shopify-hmac-sha256': signature };
    expect(verifyCustomSignature(other, signed, body(payload), at)).toEqual(MISMATCH);
    expect(verifyCustomSignature(v, signed, oneByteOff(payload), at)).toEqual(MISMATCH);
  });

  test('refuses a missing header, and a hex digest as malformed', () => {
    expect(verifyCustomSignature(v, {}, body(payload), at)).toEqual({
      ok: false,
      reason: 'missing X-Shopify-Hmac-Sha256 header',
    });
    const hex = createHmac('sha256', secret).update(payload).digest('hex');
    expect(reasonOf(verifyCustomSignature(v, { 'x-shopify-hmac-sha256': hex }, body(payload), at))).toMatch(
      /^malformed X-Shopify-Hmac-Sha256 header/,
    );
  });
});

describe('standard-webhooks', () => {
  // Secrets are `whsec_` + base64; built at runtime so that nothing here looks like a real signing secret.
  const secret = 'whsec_' + Buffer.from('k'.repeat(32)).toString('base64');
  const otherSecret = 'whsec_' + Buffer.from('j'.repeat(32)).toString('base64');
  const v: CustomVerification = { scheme: 'standard-webhooks', secret };
  /** Headers signed by the package itself. */
  const sign = (payload: string | Buffer, at: Date, opts: { id?: string; secret?: string } = {}) => {
    const id = opts.id ?? 'msg_1';
    return {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(opts.secret ?? secret).sign(id, at, payload),
    };
  };
  const payload = '{"type":"invoice.paid","id":1}';

  test("accepts the package's own signature, also over a body that is not JSON", () => {
    const now = new Date();
    expect(verifyCustomSignature(v, sign(payload, now), body(payload), now.getTime())).toEqual({ ok: true });
    expect(verifyCustomSignature(v, sign('a,b\n1,2', now), body('a,b\n1,2'), now.getTime())).toEqual({ ok: true });
  });

  test('accepts a rotated secret listed among several signatures', () => {
    const now = new Date();
    const headers = sign(payload, now);
    const old = sign(payload, now, { secret: otherSecret })['webhook-signature'];
    const both = { ...headers, 'webhook-signature': `${old} ${headers['webhook-signature']}` };
    expect(verifyCustomSignature(v, both, body(payload), now.getTime())).toEqual({ ok: true });
  });

  test('refuses another secret, a body one byte off, or another id', () => {
    const now = new Date();
    const at = now.getTime();
    expect(verifyCustomSignature(v, sign(payload, now, { secret: otherSecret }), body(payload), at)).toEqual(MISMATCH);
    expect(verifyCustomSignature(v, sign(payload, now), oneByteOff(payload), at)).toEqual(MISMATCH);
    expect(verifyCustomSignature(v, { ...sign(payload, now), 'webhook-id': 'msg_2' }, body(payload), at)).toEqual(
      MISMATCH,
    );
  });

  test('refuses a signature made over five minutes ago (a replay)', () => {
    const now = new Date();
    const old = new Date(now.getTime() - 6 * 60_000);
    expect(verifyCustomSignature(v, sign(payload, old), body(payload), now.getTime())).toEqual(OUTSIDE);
  });

  test('refuses a timestamp moved to look fresh', () => {
    const now = new Date();
    const headers = sign(payload, new Date(now.getTime() - 6 * 60_000));
    const moved = { ...headers, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)) };
    expect(verifyCustomSignature(v, moved, body(payload), now.getTime())).toEqual(MISMATCH);
  });

  test('refuses a missing or malformed header, naming it', () => {
    const now = new Date();
    const headers = sign(payload, now);
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const without: RequestHeaders = { ...headers, [name]: undefined };
      expect(verifyCustomSignature(v, without, body(payload), now.getTime())).toEqual({
        ok: false,
        reason: `missing ${name} header (or ${name.replace('webhook-', 'svix-')})`,
      });
    }
    const badTime = { ...headers, 'webhook-timestamp': 'yesterday' };
    expect(reasonOf(verifyCustomSignature(v, badTime, body(payload), now.getTime()))).toMatch(
      /^malformed webhook-timestamp header/,
    );
  });

  test('refuses a body that is not valid UTF-8, which the package could not check byte for byte', () => {
    const now = new Date();
    // The package turns a Buffer into text before signing: these two bodies sign alike.
    const signed = Buffer.from([0x7b, 0xff, 0x7d]);
    const forged = Buffer.from([0x7b, 0xfe, 0x7d]);
    expect(reasonOf(verifyCustomSignature(v, sign(signed, now), forged, now.getTime()))).toMatch(/UTF-8/);
  });

  test('refuses a secret that is not whsec_ + base64, without repeating it', () => {
    const now = new Date();
    const bad: CustomVerification = { scheme: 'standard-webhooks', secret: 'whsec_not*base64' };
    const reason = reasonOf(verifyCustomSignature(bad, sign(payload, now), body(payload), now.getTime()));
    expect(reason).toMatch(/secret/);
    expect(reason).not.toContain('not*base64');
  });
});

describe('hmac', () => {
  const at = Date.now();
  const hexSha1: CustomVerification = {
    scheme: 'hmac',
    secret: 'hmac-secret-for-tests',
    header: 'X-Signature',
    algorithm: 'sha1',
    encoding: 'hex',
    prefix: 'sha1=',
  };
  const digest = createHmac('sha1', 'hmac-secret-for-tests').update('payload').digest('hex');

  test('accepts the configured algorithm, encoding and prefix, hex in either case', () => {
    expect(verifyCustomSignature(hexSha1, { 'x-signature': `sha1=${digest}` }, body('payload'), at)).toEqual({
      ok: true,
    });
    const upper = { 'x-signature': `sha1=${digest.toUpperCase()}` };
    expect(verifyCustomSignature(hexSha1, upper, body('payload'), at)).toEqual({ ok: true });
  });

  test('accepts base64 with sha512 and no prefix', () => {
    const v: CustomVerification = { ...hexSha1, algorithm: 'sha512', encoding: 'base64', prefix: undefined };
    const signature = createHmac('sha512', 'hmac-secret-for-tests').update('payload').digest('base64');
    expect(verifyCustomSignature(v, { 'x-signature': signature }, body('payload'), at)).toEqual({ ok: true });
  });

  test('refuses another secret or a body one byte off', () => {
    const other: CustomVerification = { ...hexSha1, secret: 'another-secret' };
    expect(verifyCustomSignature(other, { 'x-signature': `sha1=${digest}` }, body('payload'), at)).toEqual(MISMATCH);
    expect(verifyCustomSignature(hexSha1, { 'x-signature': `sha1=${digest}` }, oneByteOff('payload'), at)).toEqual(
      MISMATCH,
    );
  });

  test('refuses a missing header or a digest without its prefix, naming the header', () => {
    expect(verifyCustomSignature(hexSha1, {}, body('payload'), at)).toEqual({
      ok: false,
      reason: 'missing X-Signature header',
    });
    expect(reasonOf(verifyCustomSignature(hexSha1, { 'x-signature': digest }, body('payload'), at))).toMatch(
      /^malformed X-Signature header/,
    );
    const sha256 = createHmac('sha256', 'hmac-secret-for-tests').update('payload').digest('hex');
    expect(reasonOf(verifyCustomSignature(hexSha1, { 'x-signature': `sha1=${sha256}` }, body('payload'), at))).toMatch(
      /^malformed X-Signature header/,
    );
  });
});

test('no reason repeats the secret or the body', () => {
  const secret = 'SECRET-MARKER-0123456789';
  const text = 'BODY-MARKER-abcdef';
  const schemes: CustomVerification[] = [
    { scheme: 'github', secret },
    { scheme: 'shopify', secret },
    { scheme: 'slack', secret },
    { scheme: 'standard-webhooks', secret: 'whsec_' + Buffer.from(secret).toString('base64') },
    { scheme: 'hmac', secret, header: 'X-Sig', algorithm: 'sha256', encoding: 'hex' },
  ];
  const now = Date.now();
  const junk = {
    'x-hub-signature-256': 'sha256=' + 'ab'.repeat(32),
    'x-shopify-hmac-sha256': Buffer.alloc(32).toString('base64'),
    'x-slack-signature': 'v0=' + 'ab'.repeat(32),
    'x-slack-request-timestamp': String(Math.floor(now / 1000)),
    'webhook-id': 'msg_1',
    'webhook-timestamp': String(Math.floor(now / 1000)),
    'webhook-signature': 'v1,' + Buffer.alloc(32).toString('base64'),
    'x-sig': 'ab'.repeat(32),
  };
  for (const v of schemes) {
    for (const headers of [junk, {}]) {
      const reason = reasonOf(verifyCustomSignature(v, headers, body(text), now));
      expect(reason).not.toContain('MARKER');
    }
  }
});

test('headersRead lists the lower-case headers each scheme reads', () => {
  expect(headersRead({ scheme: 'standard-webhooks', secret: 's' })).toEqual([
    'webhook-id',
    'webhook-timestamp',
    'webhook-signature',
    'svix-id',
    'svix-timestamp',
    'svix-signature',
  ]);
  expect(headersRead({ scheme: 'github', secret: 's' })).toEqual([
    'x-hub-signature-256',
    'x-github-delivery',
    'x-github-event',
  ]);
  expect(headersRead({ scheme: 'shopify', secret: 's' })).toEqual([
    'x-shopify-hmac-sha256',
    'x-shopify-webhook-id',
    'x-shopify-topic',
  ]);
  expect(headersRead({ scheme: 'slack', secret: 's' })).toEqual(['x-slack-signature', 'x-slack-request-timestamp']);
  const hmac = { scheme: 'hmac', secret: 's', header: 'X-Sig', algorithm: 'sha256', encoding: 'hex' } as const;
  expect(headersRead(hmac)).toEqual(['x-sig']);
});
