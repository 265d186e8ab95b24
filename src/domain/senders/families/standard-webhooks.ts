/**
 * Standard Webhooks (and Svix, which signs the same way under `svix-*` header names): HMAC-SHA256
 * of `id.timestamp.body`, checked by the `standardwebhooks` package. The `webhook-*` names are read
 * when `webhook-id` is sent, else the `svix-*` names. The timestamp is checked here against the
 * arrival time (the package's `verify` takes none) and then again by the package against the clock.
 * The package signs the body as UTF-8 text, so a body that is not valid UTF-8 is refused. The
 * secret is `whsec_` and base64 (Svix, Clerk, Resend, OpenAI), or for a sender whose file says
 * `key: 'text'` the key as it is, its UTF-8 bytes (Polar's secrets, as Polar's own SDK reads them).
 * A sender that signs with Ed25519 instead (`v1a,<base64 signature>` over the same string) gives
 * its public key as `whpk_` and base64: checked by node:crypto, since the package checks only `v1`.
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { headerValue, type RequestHeaders } from '../../headers';
import { FIVE_MINUTES } from '../catalog/sender';
import { verify, type KeyObject } from 'node:crypto';
import {
  decodeDigest,
  ed25519PublicKey,
  fail,
  MISMATCH,
  OK,
  outside,
  setting,
  unixSeconds,
  withinTolerance,
  type SenderCheck,
  type Verdict,
} from '../parts';

/** Every Standard Webhooks sender allows five minutes, as the specification says. */
const TOLERANCE = FIVE_MINUTES;

/** The package's verifier for a secret, or null when the package cannot read the secret (bad base64). */
function standardWebhook(secret: string, text = false): Webhook | null {
  try {
    return new Webhook(secret, text ? { format: 'raw' } : undefined);
  } catch {
    return null;
  }
}

/** A secret the standard-webhooks package can sign and verify with (checked when an app is created or edited). */
export const isStandardWebhooksSecret = (secret: string): boolean =>
  secret.startsWith(STANDARD_WEBHOOKS_PUBLIC_KEY)
    ? publicKeyOf(secret) !== undefined
    : standardWebhook(secret) !== null;

/** What a Standard Webhooks public key (Ed25519) starts with. */
export const STANDARD_WEBHOOKS_PUBLIC_KEY = 'whpk_';

/** The raw Ed25519 key of a `whpk_` key, or undefined when it is not base64 of 32 bytes. */
function publicKeyOf(secret: string): KeyObject | undefined {
  const raw = decodeDigest(secret.slice(STANDARD_WEBHOOKS_PUBLIC_KEY.length), 'base64', 32);
  return raw && ed25519PublicKey(raw);
}

/** A `v1a` (Ed25519) signature of `id.timestamp.body` among the header's space-separated signatures. */
function asymmetric(secret: string, given: Record<string, string>, body: Buffer): Verdict {
  const key = publicKeyOf(secret);
  if (!key) return fail('the public key is not a standard-webhooks public key (whpk_ followed by base64)');
  const message = Buffer.concat([Buffer.from(`${given['webhook-id']}.${given['webhook-timestamp']}.`), body]);
  for (const entry of given['webhook-signature'].split(' ')) {
    const [version, signature] = entry.split(',');
    const bytes = version === 'v1a' && signature ? decodeDigest(signature, 'base64', 64) : undefined;
    try {
      if (bytes && verify(null, message, key, bytes)) return OK;
    } catch {
      // Not a signature node:crypto can check: the same as a wrong one.
    }
  }
  return MISMATCH;
}

/** `webhook` when a `webhook-id` is sent, else `svix`: the prefix of the three headers read. */
const prefixOf = (headers: RequestHeaders) => (headerValue(headers, 'webhook-id') ? 'webhook' : 'svix');

const isUtf8 = (bytes: Buffer) => Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes);

/** The check, of a base64 secret or (`text`) of the secret's own bytes. */
const standardWebhooksCheck = (text: boolean): SenderCheck => ({
  verify(v, { headers, body, receivedAtMs }) {
    const prefix = prefixOf(headers);
    const given: Record<string, string> = {};
    for (const part of ['id', 'timestamp', 'signature']) {
      const value = headerValue(headers, `${prefix}-${part}`);
      if (!value) return fail(`missing webhook-${part} header (or svix-${part})`);
      // The package reads the webhook-* names.
      given[`webhook-${part}`] = value;
    }
    const timestamp = unixSeconds(given['webhook-timestamp']);
    if (timestamp === undefined) return fail(`malformed ${prefix}-timestamp header: expected unix seconds`);
    if (!withinTolerance(timestamp, receivedAtMs, TOLERANCE)) return outside(TOLERANCE);
    if (!isUtf8(body)) return fail('body is not valid UTF-8, which standard-webhooks signatures are checked as');
    const secret = setting(v, 'secret');
    if (!text && secret.startsWith(STANDARD_WEBHOOKS_PUBLIC_KEY)) return asymmetric(secret, given, body);
    const webhook = standardWebhook(secret, text);
    if (!webhook) return fail('the signing secret is not a standard-webhooks secret (whsec_ followed by base64)');
    try {
      // The body's format is the app's: the package is told not to parse it as JSON.
      webhook.verify(body, given, { jsonParse: false });
      return OK;
    } catch (err) {
      // The package's messages: "Message timestamp too old/new" (its clock), "No matching signature found", ...
      if (err instanceof WebhookVerificationError && /timestamp too/i.test(err.message)) return outside(TOLERANCE);
      return MISMATCH;
    }
  },
  deliveryId: ({ headers }) => headerValue(headers, `${prefixOf(headers)}-id`),
  headersRead: () => [
    'webhook-id',
    'webhook-timestamp',
    'webhook-signature',
    'svix-id',
    'svix-timestamp',
    'svix-signature',
  ],
});

export const standardWebhooks = standardWebhooksCheck(false);
export const standardWebhooksWithTextKey = standardWebhooksCheck(true);
