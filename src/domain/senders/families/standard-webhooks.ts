/**
 * Standard Webhooks (and Svix, which signs the same way under `svix-*` header names): HMAC-SHA256
 * of `id.timestamp.body`, checked by the `standardwebhooks` package. The `webhook-*` names are read
 * when `webhook-id` is sent, else the `svix-*` names. The timestamp is checked here against the
 * arrival time (the package's `verify` takes none) and then again by the package against the clock.
 * The package signs the body as UTF-8 text, so a body that is not valid UTF-8 is refused. The
 * secret is `whsec_` and base64 (Svix, Clerk, Resend, OpenAI), or for a sender whose file says
 * `key: 'text'` the key as it is, its UTF-8 bytes (Polar's secrets, as Polar's own SDK reads them).
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { headerValue, type RequestHeaders } from '../../headers';
import { FIVE_MINUTES } from '../catalog/sender';
import { fail, MISMATCH, OK, outside, setting, unixSeconds, withinTolerance, type SenderCheck } from '../parts';

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
export const isStandardWebhooksSecret = (secret: string): boolean => standardWebhook(secret) !== null;

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
    const webhook = standardWebhook(setting(v, 'secret'), text);
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
