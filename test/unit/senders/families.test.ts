/**
 * The HMAC family's own edge cases, once (src/domain/senders/families/hmac.ts; the public-key and
 * static families' are in ./families-*.test.ts), each over a sender's data written here as its file
 * would spell it: malformed parts, several digests
 * (any may match), a wrong prefix or encoding, a time that is not whole seconds, two keys and the key
 * encodings. The providers' published examples (GitHub's, Slack's) and the Stripe-Signature header as
 * the `stripe` package signs it are cases here. Every sender's fixture runs through ../senders.test.ts.
 */
import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import type { HmacSignature } from '../../../src/domain/senders/catalog/sender';
import { stripe as stripeSender } from '../../../src/domain/senders/catalog/stripe';
import { hmacCheck } from '../../../src/domain/senders/families/hmac';
import { MISMATCH } from '../../../src/domain/senders/parts';
import { expectRefused, reasonOf, verdictOf } from '../../support/senders/verdicts';

const SECRET = 'family-secret-0123456789';
const OTHER = 'family-other-0123456789';

const verdict = verdictOf;
const mac = (key: string | Buffer, text: string, encoding: 'hex' | 'base64' = 'hex', algorithm = 'sha256') =>
  createHmac(algorithm, key).update(text).digest(encoding);

describe('hmac: a header of parts (t=…,v1=…), as the stripe package signs Stripe-Signature', () => {
  const check = hmacCheck(stripeSender.signature, stripeSender);
  const v = { secret: 'whsec_' + 'test'.repeat(4) };
  const other = 'whsec_' + 'other'.repeat(4);
  const stripe = new Stripe('sk_test_x');
  const body = JSON.stringify({ id: 'evt_test_1', object: 'event', type: 'charge.succeeded' });
  const t = 1_700_000_000;
  const header = (o: { secret?: string; payload?: string; timestamp?: number; scheme?: string } = {}) =>
    stripe.webhooks.generateTestHeaderString({ payload: body, secret: v.secret, timestamp: t, ...o });
  const v1 = (h: string) =>
    h
      .split(',')
      .find((p) => p.startsWith('v1='))!
      .slice(3);
  const at = (h: string | undefined, seconds = t) =>
    verdict(check, v, h === undefined ? {} : { 'stripe-signature': h }, body, seconds);

  test("the package's header is accepted; the time is signed: one moved is refused", () => {
    expect(at(header())).toEqual({ ok: true });
    expect(at(header().replace(`t=${t}`, `t=${t + 1}`))).toEqual(MISMATCH);
  });

  test('any of several v1 may match, in either order; none matching is a mismatch; spaces are tolerated', () => {
    const good = v1(header());
    const bad = v1(header({ secret: other }));
    expect(at(`t=${t},v1=${bad},v1=${good},v0=${bad}`)).toEqual({ ok: true });
    expect(at(`t=${t},v1=${good},v1=${bad}`)).toEqual({ ok: true });
    expect(at(`t=${t},v1=${bad},v1=${v1(header({ payload: '{}' }))}`)).toEqual(MISMATCH);
    expect(at(`t=${t},v1=${bad},v1=zz`)).toEqual(MISMATCH);
    expect(at(`t=${t}, v1=${good}`)).toEqual({ ok: true });
  });

  test('malformed parts have distinct reasons, each naming the header, none a digest', () => {
    expect(at('')).toEqual(at(undefined));
    const reasons = [
      at(undefined),
      at(`v1=${v1(header())}`),
      at(header({ scheme: 'v0' })),
      at(`t=${t},v1=zz`),
      at(`t=${t}.5,v1=${v1(header())}`),
      at('signature'),
      at(header({ secret: other })),
    ].map(reasonOf);
    expect(reasons.slice(0, 6)).toEqual([
      'missing Stripe-Signature header',
      expect.stringMatching(/^malformed Stripe-Signature header: no t=/),
      expect.stringMatching(/^malformed Stripe-Signature header: no v1=/),
      expect.stringMatching(/^malformed Stripe-Signature v1/),
      expect.stringMatching(/^malformed Stripe-Signature header: t=? is not unix seconds/),
      expect.stringMatching(/^malformed Stripe-Signature header/),
    ]);
    expect(new Set(reasons).size).toBe(reasons.length - 1);
    for (const r of reasons) expectRefused({ ok: false, reason: r }, /./, v.secret, body);
  });

  test('the tolerance applies on either side of arrival', () => {
    expect(at(header({ timestamp: t - 240 }))).toEqual({ ok: true });
    expectRefused(at(header({ timestamp: t - 360 })), /tolerance/);
    expectRefused(at(header({ timestamp: t + 360 })), /tolerance/);
  });

  test('a part separator of ";" (Paddle) reads "," as part of a value: malformed', () => {
    const semi: HmacSignature = {
      ...stripeSender.signature,
      header: 'Paddle-Signature',
      parts: { digest: 'h1', separator: ';' },
    };
    const paddle = hmacCheck(
      { ...semi, time: { part: 'ts', unit: 's' }, content: '{time}:{body}' },
      { toleranceSeconds: 5 },
    );
    const h1 = mac(SECRET, `${t}:${body}`);
    expect(verdict(paddle, { secret: SECRET }, { 'paddle-signature': `ts=${t};h1=${h1}` }, body, t)).toEqual({
      ok: true,
    });
    expectRefused(
      verdict(paddle, { secret: SECRET }, { 'paddle-signature': `ts=${t},h1=${h1}` }, body, t),
      /^malformed/,
    );
  });
});

describe('hmac: one digest in a header', () => {
  // https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries
  // ("Testing the webhook payload validation": its secret, payload and X-Hub-Signature-256).
  const github = hmacCheck(
    { family: 'hmac', header: 'X-Hub-Signature-256', prefix: 'sha256=', encoding: 'hex', content: '{body}' },
    { toleranceSeconds: null },
  );
  const example = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';
  const docs = { secret: "It's a Secret to Everybody" };
  const gh = (headers: Record<string, string | string[]>, body = 'Hello, World!', v = docs) =>
    verdict(github, v, headers, body, 0);

  test("GitHub's published example is accepted; another secret or a body one byte off is a mismatch", () => {
    expect(gh({ 'x-hub-signature-256': example })).toEqual({ ok: true });
    expect(gh({ 'x-hub-signature-256': example }, 'Hello, World?')).toEqual(MISMATCH);
    expect(gh({ 'x-hub-signature-256': example }, undefined, { secret: "It's a Secret to Nobody" })).toEqual(MISMATCH);
  });

  test('a wrong prefix, a short digest or another encoding is malformed, the header named', () => {
    for (const bad of [
      example.slice(7),
      'sha1=' + example.slice(7),
      example.slice(0, -2),
      `${example.slice(0, -1)}g`,
    ]) {
      expectRefused(gh({ 'x-hub-signature-256': bad }), /^malformed X-Hub-Signature-256 header/);
    }
    const base64 = 'sha256=' + Buffer.from(example.slice(7), 'hex').toString('base64');
    expectRefused(gh({ 'x-hub-signature-256': base64 }), /^malformed X-Hub-Signature-256 header/);
    expectRefused(gh({}), 'missing X-Hub-Signature-256 header');
  });

  test('hex in either case is taken; a header sent twice counts with its first value', () => {
    expect(gh({ 'x-hub-signature-256': example.toUpperCase().replace('SHA256=', 'sha256=') })).toEqual({ ok: true });
    const zero = 'sha256=' + '0'.repeat(64);
    expect(gh({ 'x-hub-signature-256': [example, zero] })).toEqual({ ok: true });
    expect(gh({ 'x-hub-signature-256': [zero, example] })).toEqual(MISMATCH);
  });

  test("the person's algorithm, encoding and prefix (the generic hmac): a sha256 digest under sha1 is malformed", () => {
    const generic = hmacCheck(
      {
        family: 'hmac',
        header: { setting: 'header' },
        prefix: { setting: 'prefix' },
        algorithm: { setting: 'algorithm' },
        encoding: { setting: 'encoding' },
        content: '{body}',
      },
      { toleranceSeconds: null },
    );
    const v = { secret: SECRET, header: 'X-Sig', algorithm: 'sha1', encoding: 'hex', prefix: 'sha1=' } as const;
    expect(verdict(generic, v, { 'x-sig': 'sha1=' + mac(SECRET, 'b', 'hex', 'sha1') }, 'b', 0)).toEqual({ ok: true });
    expectRefused(verdict(generic, v, { 'x-sig': 'sha1=' + mac(SECRET, 'b') }, 'b', 0), /^malformed X-Sig header/);
    const sha512 = { ...v, algorithm: 'sha512', encoding: 'base64', prefix: undefined } as const;
    expect(verdict(generic, sha512, { 'x-sig': mac(SECRET, 'b', 'base64', 'sha512') }, 'b', 0)).toEqual({ ok: true });
  });

  test('a base64 digest (Shopify) is not taken as hex, nor a hex one as base64', () => {
    const shopify = hmacCheck(
      { family: 'hmac', header: 'X-Sig', encoding: 'base64', content: '{body}' },
      { toleranceSeconds: null },
    );
    expect(verdict(shopify, { secret: SECRET }, { 'x-sig': mac(SECRET, 'b', 'base64') }, 'b', 0)).toEqual({ ok: true });
    expectRefused(
      verdict(shopify, { secret: SECRET }, { 'x-sig': mac(SECRET, 'b') }, 'b', 0),
      /^malformed X-Sig header/,
    );
  });
});

describe('hmac: a signed time', () => {
  // https://api.slack.com/authentication/verifying-requests-from-slack (its worked example, abridged body).
  const slack = hmacCheck(
    {
      family: 'hmac',
      header: 'X-Slack-Signature',
      prefix: 'v0=',
      encoding: 'hex',
      content: 'v0:{time}:{body}',
      time: { header: 'X-Slack-Request-Timestamp', unit: 's' },
    },
    { toleranceSeconds: 300 },
  );
  const v = { secret: '8f742231b10e8888abcd99yyyzzz85a5' };
  const body =
    'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V' +
    '&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=' +
    '&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN' +
    '&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
  const headers = {
    'x-slack-request-timestamp': '1531420618',
    'x-slack-signature': 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
  };
  const t = 1531420618;

  test("Slack's published example is accepted at its time and within 300 s either side; a moved time is a mismatch", () => {
    for (const at of [t, t + 299, t - 299]) expect(verdict(slack, v, headers, body, at)).toEqual({ ok: true });
    expectRefused(verdict(slack, v, headers, body, t + 301), 'timestamp outside the 300-second tolerance');
    const moved = { ...headers, 'x-slack-request-timestamp': String(t + 1) };
    expect(verdict(slack, v, moved, body, t + 1)).toEqual(MISMATCH);
  });

  test('a time that is not whole seconds, or no time, is refused, the header named', () => {
    for (const bad of [`${t}.5`, '2018-07-12T18:36:58Z', '-1', ''])
      expectRefused(
        verdict(slack, v, { ...headers, 'x-slack-request-timestamp': bad }, body, t),
        /X-Slack-Request-Timestamp/,
      );
    expectRefused(
      verdict(slack, v, { 'x-slack-signature': headers['x-slack-signature'] }, body, t),
      'missing X-Slack-Request-Timestamp header',
    );
    expectRefused(
      verdict(slack, v, { ...headers, 'x-slack-signature': 'v1=' + headers['x-slack-signature'].slice(3) }, body, t),
      /^malformed X-Slack-Signature header/,
    );
  });

  test('an ISO 8601 time (Box) and a time in the body in milliseconds (Linear) are read in their unit', () => {
    const iso = hmacCheck(
      {
        family: 'hmac',
        header: 'sig',
        encoding: 'base64',
        content: '{body}{time}',
        time: { header: 'ts', unit: 'iso' },
      },
      { toleranceSeconds: 600 },
    );
    const when = '2026-01-01T12:00:00+00:00';
    const s = Date.parse(when) / 1000;
    const signed = { ts: when, sig: mac(SECRET, `x${when}`, 'base64') };
    expect(verdict(iso, { secret: SECRET }, signed, 'x', s + 600)).toEqual({ ok: true });
    expectRefused(
      verdict(iso, { secret: SECRET }, { ...signed, ts: String(s) }, 'x', s),
      /^malformed ts header: expected an ISO 8601 time$/,
    );
    const inBody = hmacCheck(
      {
        family: 'hmac',
        header: 'sig',
        encoding: 'hex',
        content: '{body}',
        time: { json: 'webhookTimestamp', unit: 'ms' },
      },
      { toleranceSeconds: 60 },
    );
    const json = JSON.stringify({ webhookTimestamp: s * 1000 + 500 });
    expect(verdict(inBody, { secret: SECRET }, { sig: mac(SECRET, json) }, json, s + 60)).toEqual({ ok: true });
    expectRefused(verdict(inBody, { secret: SECRET }, { sig: mac(SECRET, json) }, json, s + 61), /tolerance/);
    expectRefused(
      verdict(inBody, { secret: SECRET }, { sig: mac(SECRET, '{}') }, '{}', s),
      'missing webhookTimestamp in the body',
    );
  });
});

describe('hmac: keys', () => {
  const of = (key: HmacSignature['key'], header: HmacSignature['header'] = 'sig') =>
    hmacCheck({ family: 'hmac', header, encoding: 'hex', content: '{body}', key }, { toleranceSeconds: null });
  const raw = Buffer.from('raw-key-bytes-0123456789abcdef', 'utf8');

  test('two keys (a secondary, a key being rotated): a digest under either is accepted, under neither refused', () => {
    const box = of(undefined, ['sig-primary', 'sig-secondary']);
    const v = { secret: SECRET, secondarySecret: OTHER };
    expect(verdict(box, v, { 'sig-primary': 'ab'.repeat(32), 'sig-secondary': mac(OTHER, 'b') }, 'b', 0)).toEqual({
      ok: true,
    });
    expect(verdict(box, v, { 'sig-secondary': mac(SECRET, 'b') }, 'b', 0)).toEqual({ ok: true });
    expect(verdict(box, { secret: SECRET }, { 'sig-primary': mac(OTHER, 'b') }, 'b', 0)).toEqual(MISMATCH);
    expectRefused(verdict(box, v, {}, 'b', 0), 'missing sig-primary or sig-secondary header');
  });

  test.each([
    ['text', 'raw-key-bytes-0123456789abcdef'],
    ['base64', raw.toString('base64')],
    ['hex', raw.toString('hex')],
    ['whsec', 'whsec_' + raw.toString('base64')],
  ] as const)('a %s key is the bytes it encodes', (encoding, secret) => {
    expect(verdict(of(encoding), { secret }, { sig: mac(raw, 'b') }, 'b', 0)).toEqual({ ok: true });
    expect(verdict(of(encoding), { secret }, { sig: mac(secret, 'b') }, 'b', 0)).toEqual(
      encoding === 'text' ? { ok: true } : MISMATCH,
    );
  });
});
