/**
 * Signature verification for custom apps: how a sender signs, checked by the receiver over the
 * exact raw bytes of the request body before a delivery's workflow starts (src/deliveries/intake.ts).
 * A failure is a `rejected` delivery with the reason; a reason names headers and rules only, never the
 * secret, the body or a digest. Digests are compared with crypto.timingSafeEqual after their format and
 * length are checked (a digest's length is public).
 *
 * | scheme            | header                                 | signed                                    |
 * |-------------------|----------------------------------------|-------------------------------------------|
 * | standard-webhooks | webhook-signature: v1,<base64> [...]   | `id.timestamp.body`, HMAC-SHA256, 5 min   |
 * | github            | X-Hub-Signature-256: sha256=<hex>      | body, HMAC-SHA256                         |
 * | shopify           | X-Shopify-Hmac-Sha256: <base64>        | body, HMAC-SHA256                         |
 * | slack             | X-Slack-Signature: v0=<hex>            | `v0:timestamp:body`, HMAC-SHA256, 5 min   |
 * | hmac              | any header: <prefix><hex or base64>    | body, HMAC-SHA1/256/512                   |
 *
 * A signed timestamp (standard-webhooks, slack) must be within SIGNED_TIMESTAMP_TOLERANCE_SECONDS of the
 * moment the request arrived, so an old request replayed later fails. standard-webhooks is checked by the
 * `standardwebhooks` package, whose `verify` takes no time argument: the timestamp is checked here against
 * the arrival time and then again by the package against the clock (the same moment, give or take the
 * time taken to read the body). The package signs the body as UTF-8 text, so a body that is not valid UTF-8
 * (which it could not check byte for byte) is rejected.
 * A header sent twice counts with its first value.
 */
import { headerValue, type RequestHeaders } from './headers';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export const HMAC_ALGORITHMS = ['sha256', 'sha1', 'sha512'] as const;
export const SIGNATURE_ENCODINGS = ['hex', 'base64'] as const;
export const VERIFICATION_SCHEMES = ['standard-webhooks', 'github', 'shopify', 'slack', 'hmac'] as const;
export type VerificationScheme = (typeof VERIFICATION_SCHEMES)[number];

export type CustomVerification =
  | { scheme: 'standard-webhooks' | 'github' | 'shopify' | 'slack'; secret: string }
  | {
      scheme: 'hmac';
      secret: string;
      header: string;
      algorithm: (typeof HMAC_ALGORITHMS)[number];
      encoding: (typeof SIGNATURE_ENCODINGS)[number];
      prefix?: string;
    };

/** Request headers as Node gives them: lower-case names. */
export type { RequestHeaders };
export type Verdict = { ok: true } | { ok: false; reason: string };

/** How far a signed timestamp (standard-webhooks, slack) may be from the moment the request arrived. */
export const SIGNED_TIMESTAMP_TOLERANCE_SECONDS = 300;

const OK: Verdict = { ok: true };
const MISMATCH: Verdict = { ok: false, reason: 'signature does not match the signing secret' };
const OUTSIDE: Verdict = {
  ok: false,
  reason: `timestamp outside the ${SIGNED_TIMESTAMP_TOLERANCE_SECONDS}-second tolerance`,
};
const fail = (reason: string): Verdict => ({ ok: false, reason });

/** The digest's bytes if `text` is exactly `length` bytes in the encoding (hex in either case), else undefined. */
function decodeDigest(text: string, encoding: 'hex' | 'base64', length: number): Buffer | undefined {
  const pattern = encoding === 'hex' ? /^[0-9a-fA-F]*$/ : /^[A-Za-z0-9+/]*={0,2}$/;
  const size = encoding === 'hex' ? length * 2 : Math.ceil(length / 3) * 4;
  if (text.length !== size || !pattern.test(text)) return undefined;
  const bytes = Buffer.from(text, encoding);
  return bytes.length === length ? bytes : undefined;
}

/** Checks `<prefix><digest>` in a header against the expected digest. `name` is spelled as the docs spell it. */
function digestHeader(
  headers: RequestHeaders,
  name: string,
  expected: Buffer,
  encoding: 'hex' | 'base64',
  prefix = '',
): Verdict {
  const value = headerValue(headers, name)?.trim();
  if (!value) return fail(`missing ${name} header`);
  const what = `${prefix ? `"${prefix}" + ` : ''}${encoding} digest of ${expected.length} bytes`;
  if (!value.startsWith(prefix)) return fail(`malformed ${name} header: expected ${what}`);
  const given = decodeDigest(value.slice(prefix.length), encoding, expected.length);
  if (!given) return fail(`malformed ${name} header: expected ${what}`);
  return timingSafeEqual(given, expected) ? OK : MISMATCH;
}

/** Whole seconds since the epoch, as a signed timestamp is sent; undefined if malformed. */
function unixSeconds(text: string): number | undefined {
  return /^\d{1,12}$/.test(text) ? Number(text) : undefined;
}

function withinTolerance(timestampSeconds: number, receivedAtMs: number): boolean {
  return Math.abs(receivedAtMs / 1000 - timestampSeconds) <= SIGNED_TIMESTAMP_TOLERANCE_SECONDS;
}

function isUtf8(bytes: Buffer): boolean {
  return Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes);
}

/** The package's verifier for a secret, or null when the package cannot read the secret (bad base64). */
function standardWebhook(secret: string): Webhook | null {
  try {
    return new Webhook(secret);
  } catch {
    return null;
  }
}

/** A secret the standard-webhooks package can sign and verify with (checked when an app is created or edited). */
export const isStandardWebhooksSecret = (secret: string): boolean => standardWebhook(secret) !== null;

function standardWebhooks(secret: string, headers: RequestHeaders, body: Buffer, receivedAtMs: number): Verdict {
  const given: Record<string, string> = {};
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    const value = headerValue(headers, name);
    if (!value) return fail(`missing ${name} header`);
    given[name] = value;
  }
  const timestamp = unixSeconds(given['webhook-timestamp']);
  if (timestamp === undefined) return fail('malformed webhook-timestamp header: expected unix seconds');
  if (!withinTolerance(timestamp, receivedAtMs)) return OUTSIDE;
  if (!isUtf8(body)) return fail('body is not valid UTF-8, which standard-webhooks signatures are checked as');
  const webhook = standardWebhook(secret);
  if (!webhook) return fail('the signing secret is not a standard-webhooks secret (whsec_ followed by base64)');
  try {
    // The body's format is the app's: the package is told not to parse it as JSON.
    webhook.verify(body, given, { jsonParse: false });
    return OK;
  } catch (err) {
    // The package's messages: "Message timestamp too old/new" (its clock), "No matching signature found", ...
    if (err instanceof WebhookVerificationError && /timestamp too/i.test(err.message)) return OUTSIDE;
    return MISMATCH;
  }
}

function slack(secret: string, headers: RequestHeaders, body: Buffer, receivedAtMs: number): Verdict {
  if (!headerValue(headers, 'x-slack-signature')) return fail('missing X-Slack-Signature header');
  const text = headerValue(headers, 'x-slack-request-timestamp');
  if (!text) return fail('missing X-Slack-Request-Timestamp header');
  const timestamp = unixSeconds(text);
  if (timestamp === undefined) return fail('malformed X-Slack-Request-Timestamp header: expected unix seconds');
  if (!withinTolerance(timestamp, receivedAtMs)) return OUTSIDE;
  const expected = createHmac('sha256', secret).update(`v0:${text}:`).update(body).digest();
  return digestHeader(headers, 'X-Slack-Signature', expected, 'hex', 'v0=');
}

/** Checks a custom app's request signature over the exact raw body; `receivedAtMs` is when the request arrived. */
export function verifyCustomSignature(
  v: CustomVerification,
  headers: RequestHeaders,
  rawBody: Buffer,
  receivedAtMs: number,
): Verdict {
  const hmac = (algorithm: string) => createHmac(algorithm, v.secret).update(rawBody).digest();
  switch (v.scheme) {
    case 'standard-webhooks':
      return standardWebhooks(v.secret, headers, rawBody, receivedAtMs);
    case 'github':
      return digestHeader(headers, 'X-Hub-Signature-256', hmac('sha256'), 'hex', 'sha256=');
    case 'shopify':
      return digestHeader(headers, 'X-Shopify-Hmac-Sha256', hmac('sha256'), 'base64');
    case 'slack':
      return slack(v.secret, headers, rawBody, receivedAtMs);
    case 'hmac':
      return digestHeader(headers, v.header, hmac(v.algorithm), v.encoding, v.prefix);
  }
}

/** The request headers a scheme reads (lower-case), kept with each delivery so it can be inspected and replayed. */
export function headersRead(v: CustomVerification): string[] {
  switch (v.scheme) {
    case 'standard-webhooks':
      return ['webhook-id', 'webhook-timestamp', 'webhook-signature'];
    case 'github':
      return ['x-hub-signature-256', 'x-github-delivery', 'x-github-event'];
    case 'shopify':
      return ['x-shopify-hmac-sha256', 'x-shopify-webhook-id', 'x-shopify-topic'];
    case 'slack':
      return ['x-slack-signature', 'x-slack-request-timestamp'];
    case 'hmac':
      return [v.header.toLowerCase()];
  }
}
