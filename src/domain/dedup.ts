/**
 * Spec rule: duplicate deliveries make one run. Its one home: the dedup key of a delivery, the
 * delivery workflow ID derived from it, the reuse policy its start uses and how long a repeat is
 * recognised. Temporal itself refuses a second workflow with the same ID (docs/api.md,
 * Deduplication), so a repeat is answered 200 and makes no run.
 *
 * The key is taken from what the sender signed, when it must sign, so that a captured signed
 * request sent again with another unsigned header is still the same delivery:
 * - payment provider: the event's `id` (inside the signed body);
 * - custom app with a sender (src/domain/senders/catalog.ts): the sender's own id of the delivery
 *   where it signs one (Standard Webhooks' `webhook-id`, Twitch's message id, Notion's event id,
 *   …; each sender's `deliveryId`), or its id header where its credential is a static token
 *   (GitLab, a fixed header, Basic credentials); else the body's digest. Unsigned delivery id
 *   headers (`X-GitHub-Delivery`, `X-Shopify-Webhook-Id`) label a delivery (they are kept with it)
 *   but never make it new;
 * - custom app without one (nothing is signed): the `Idempotency-Key` header, else `webhook-id`,
 *   else the body's digest;
 * - a replay: `replay:<original delivery id>:<n>`, the n-th replay of that delivery;
 * always scoped to the trigger identifier. That is a custom app's `auto` choice; an app may choose
 * instead (`DedupChoice`, since 0.6): a header it names (only when nothing is signed: a captured
 * request sent again with another value would run again), a JSON path in the body, the body's
 * digest, or none (every delivery runs; only when nothing is signed, and a window no shorter than a
 * capture verifies for: `dedupProblem`).
 *
 * **Window.** A repeat is recognised for the choice's window: by default 72 hours for a key from
 * an id (`DEDUP_WINDOW`, the namespace's retention, as long as Stripe retries), and one hour for
 * the body's digest (`BODY_DEDUP_WINDOW_MS`): a sender's quick retries are one delivery, but the
 * same `{"status":"down"}` tomorrow is a new one. Except for senders whose signature carries no
 * time (`toleranceSeconds: null` in the catalog): there the digest is the only thing that stops a
 * captured request sent again, so it keeps 72 hours; but for the senders whose notifications carry
 * neither an id nor a time and are legitimately identical (Dropbox, Microsoft Graph: "something
 * changed"), whose catalog entry names its own `bodyWindowSeconds` (60 s): a capture sent again
 * later makes one more run that says what a genuine one would. A window shorter than the retention is kept by
 * the start (src/deliveries/start.ts): a repeat whose original ended longer ago than the window
 * starts again under the same workflow ID.
 *
 * **Nothing a sender chose is in a workflow ID as it is.** Keys end up in workflow IDs, Temporal's
 * visibility store, its Web UI and log lines, in clear; a value a sender chose (an id header, a
 * value at a JSON path, an event's id) may be personal (`ann@example.com-otp-493817`), so every
 * one is used by its keyed digest (`<source>-hmac:<HMAC-SHA256>`, since 0.7), as the body is: a
 * bare hash of a short value could be reversed by guessing, and the key is derived from
 * SECRETS_KEY. So every workflow ID also fits Temporal server's limit (TEMPORAL_MAX_ID_BYTES). The
 * value itself is kept with the delivery (its kept headers), readable through the API.
 */
import { headerValue, type RequestHeaders } from './headers';
import { parseJsonWithin } from './body-formats';
import { DEDUP_PARSE_BYTES, DEDUP_PARSE_BYTES_SIGNED, TEMPORAL_MAX_ID_BYTES } from './limits';
import { keyedDigest } from './secrets';
import { DELIVERY_WORKFLOW_ID_PREFIX } from './ids';
import type { BodyFormat, TriggerKind } from './types';
import { isExpression, lookup, parsePath } from './placeholders';
import { SENDERS, type SenderName } from './senders/catalog';
import { stripe } from './senders/catalog/stripe';

/** The workflow ID's prefix before the trigger identifier. */
/** The longest trigger identifier: `custom:` or `stripe:` and a UUID (src/domain/ids.ts). */
const IDENTIFIER_MAX_BYTES = 'custom:'.length + 36;
/** The longest key: what is left of TEMPORAL_MAX_ID_BYTES in `delivery:<identifier>:<key>`. */
export const DEDUP_KEY_MAX_BYTES =
  TEMPORAL_MAX_ID_BYTES - DELIVERY_WORKFLOW_ID_PREFIX.length - IDENTIFIER_MAX_BYTES - 1;

/**
 * The start's ID reuse policy: a delivery whose body did not parse failed its workflow, and a
 * later genuine delivery with the same key may start again; one that ran or is running may not.
 */
export const DELIVERY_ID_REUSE_POLICY = 'ALLOW_DUPLICATE_FAILED_ONLY' as const;

/**
 * How long a repeat is recognised: as long as the namespace keeps closed workflows (its
 * retention), three days, as long as Stripe retries a delivery. The embedded server's namespace
 * is made with it; docker-compose.yml sets the same for production (DEFAULT_NAMESPACE_RETENTION).
 */
export const DEDUP_WINDOW = '72h';
/** The same in milliseconds: the longest window an app may choose (the namespace keeps nothing longer). */
export const DEDUP_WINDOW_MS = 72 * 3600_000;
/** The body digest's default window: Hookdeck's longest; a sender's retries come within minutes. */
export const BODY_DEDUP_WINDOW_MS = 3600_000;
/** What a trigger's senders sign with: a sender of the catalog, or `stripe` (the payment provider). */
type SignedWith = SenderName | 'stripe';

/** How far a signed time may be from ours (seconds), or null when the sender signs no time. */
const toleranceOf = (signedWith: SignedWith): number | null =>
  signedWith === 'stripe' ? stripe.toleranceSeconds : SENDERS[signedWith].toleranceSeconds;

/**
 * Senders that sign the body but no time: a captured request verifies forever, so its digest keeps
 * the long window by default (unless the sender names its own, `bodyWindowSeconds`).
 */
const untimed = (signedWith: string | null): boolean =>
  signedWith !== null && toleranceOf(signedWith as SignedWith) === null;

/**
 * How long after it arrived a capture of a request signed with a time still verifies: its time is
 * within the sender's tolerance of ours either way, so a request whose sender's clock ran ahead
 * can be sent again for up to twice that.
 */
const signedReplayWindowMs = (toleranceSeconds: number) => 2 * toleranceSeconds * 1000;

/** The longest of those over every sender: how long a handshake sent again is recognised. */
export const SIGNED_REPLAY_WINDOW_MS = signedReplayWindowMs(
  Math.max(stripe.toleranceSeconds, ...Object.values(SENDERS).map((s) => s.toleranceSeconds ?? 0)),
);

/** What an app's deliveries are told apart by (docs/api.md#deduplication). */
export const DEDUP_KEYS = ['auto', 'header', 'jsonPath', 'body', 'none'] as const;
type DedupKeyChoice = (typeof DEDUP_KEYS)[number];

export interface DedupChoice {
  key: DedupKeyChoice;
  /** For `header`: its lower-case name. */
  header?: string;
  /** For `jsonPath`: a placeholder's expression (`trigger.event.id`). */
  path?: string;
  /** How long a repeat is recognised; absent: the key's default (72 h for an id, 1 h for a digest). */
  windowSeconds?: number;
}

export const AUTO_DEDUP: DedupChoice = { key: 'auto' };

/** Why an app cannot have this choice, or null. */
export function dedupProblem(
  choice: DedupChoice,
  app: { signedWith: string | null; bodyFormat: BodyFormat },
): { field: string; problem: string } | null {
  if (choice.key === 'header') {
    if (!choice.header) return { field: 'dedup.header', problem: 'name the header' };
    if (app.signedWith)
      return {
        field: 'dedup.key',
        problem:
          `${app.signedWith} senders do not sign a header of your choosing: a captured request sent again ` +
          'with another value would run again. Use auto (their signed id or body) or jsonPath',
      };
  }
  if (app.signedWith) {
    // A signed request can be captured and sent again: only the refusal of a repeat stops it.
    const tolerance = toleranceOf(app.signedWith as SignedWith);
    const replayable =
      tolerance === null
        ? `${app.signedWith} signatures carry no time, so a captured request would verify and run again`
        : `${app.signedWith} signatures verify for ${tolerance} s either side of their time, ` +
          'so a captured request would run again within that';
    if (choice.key === 'none') return { field: 'dedup.key', problem: replayable };
    const least = shortestWindowMs(app.signedWith);
    if (choice.windowSeconds !== undefined && choice.windowSeconds * 1000 < least)
      return {
        field: 'dedup.windowSeconds',
        problem: `${replayable}: at least ${least / 1000} seconds${tolerance === null ? ' (the default)' : ''}`,
      };
  }
  if (app.signedWith && app.signedWith !== 'stripe' && SENDERS[app.signedWith as SenderName].signsPartOfBody)
    if (choice.key === 'body' || choice.key === 'jsonPath')
      return {
        field: 'dedup.key',
        problem: `${app.signedWith} signs only part of its body: a capture with the rest changed would run again. Use auto`,
      };
  if (choice.key === 'jsonPath') {
    if (!choice.path || !isExpression(choice.path) || choice.path === 'trigger')
      return { field: 'dedup.path', problem: 'a path as in a placeholder: trigger.event.id' };
    if (app.bodyFormat !== 'json') return { field: 'dedup.key', problem: 'only a json app has JSON paths' };
  }
  return null;
}

/** The shortest window a delivery signed this way keeps (0 when nothing is signed). */
function shortestWindowMs(signedWith: string | null): number {
  if (!signedWith) return 0;
  const tolerance = toleranceOf(signedWith as SignedWith);
  if (tolerance !== null) return signedReplayWindowMs(tolerance);
  return ownBodyWindowMs(signedWith) ?? DEDUP_WINDOW_MS;
}

/** The body digest's window a sender names for itself (Dropbox, Microsoft Graph), in ms, or undefined. */
function ownBodyWindowMs(signedWith: string | null): number | undefined {
  const seconds =
    signedWith && signedWith !== 'stripe' ? SENDERS[signedWith as SenderName].bodyWindowSeconds : undefined;
  return seconds === undefined ? undefined : seconds * 1000;
}

/** What a delivery's key is taken from. */
export interface DedupSource {
  kind: TriggerKind;
  /**
   * The scheme the trigger's senders must sign with (`stripe` for a payment provider with a
   * signing secret), or null when nothing is signed.
   */
  signedWith: string | null;
  headers: RequestHeaders;
  body: Buffer;
  /** The sender's own id of the delivery (src/domain/senders/checks.ts, `senderDeliveryId`), if it gave one. */
  senderId?: string;
  /** The app's choice (absent: auto). */
  choice?: DedupChoice;
}

/** A delivery's key, and how long a repeat of it is recognised. */
export interface Dedup {
  key: string;
  windowMs: number;
}

/** A value the sender chose, as a key: by its keyed digest, never as it is. */
function keyPart(digestKey: Buffer, source: string, value: string): string {
  return `${source}-hmac:${keyedDigest(digestKey, value)}`;
}

/** How much of a body is parsed for its key (src/domain/limits/deliveries.ts says why). */
const parseBytes = (signedWith: string | null) => (signedWith ? DEDUP_PARSE_BYTES_SIGNED : DEDUP_PARSE_BYTES);

/** The event's id, or undefined (not JSON, too large or deep: the body's digest is the key; parsing says why). */
function stripeEventId(body: Buffer, signedWith: string | null): string | undefined {
  const event = parseJsonWithin(body, parseBytes(signedWith));
  const id = event !== null && typeof event === 'object' && !Array.isArray(event) ? event.id : undefined;
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}

/** The key of a test delivery (POST /api/robots/:id/test-delivery): its own, so each one runs. */
export function testDeliveryKey(deliveryId: string): string {
  return `test:${deliveryId}`;
}

/** The key of the n-th replay (from 1) of a delivery. */
export function replayKey(originalDeliveryId: string, n: number): string {
  return `replay:${originalDeliveryId}:${n}`;
}

/** The delivery's key and window; `digestKey` keys its digests (derivedKey(SECRETS_KEY, 'dedup')). */
export function dedupOf(source: DedupSource, digestKey: Buffer, deliveryId: string): Dedup {
  const choice = source.choice ?? AUTO_DEDUP;
  // A signed app never runs a repeat (dedupProblem refuses `none` for one; an app saved before may have it).
  const every = choice.key === 'none' && !source.signedWith;
  const key = every ? `none:${deliveryId}` : chosenKey(source, choice, digestKey);
  const digest = key.startsWith('body-hmac:');
  const byDefault = !digest
    ? DEDUP_WINDOW_MS
    : (ownBodyWindowMs(source.signedWith) ?? (untimed(source.signedWith) ? DEDUP_WINDOW_MS : BODY_DEDUP_WINDOW_MS));
  const chosen = choice.windowSeconds === undefined ? byDefault : choice.windowSeconds * 1000;
  const windowMs = Math.max(chosen, shortestWindowMs(source.signedWith));
  return { key, windowMs: Math.min(windowMs, DEDUP_WINDOW_MS) };
}

function chosenKey(source: DedupSource, choice: DedupChoice, digestKey: Buffer): string {
  if (choice.key === 'header' && choice.header) {
    const value = headerValue(source.headers, choice.header);
    if (value) return keyPart(digestKey, 'header', value);
  } else if (choice.key === 'jsonPath' && choice.path) {
    const value = pathValue(source.body, choice.path, parseBytes(source.signedWith));
    if (value !== undefined) return keyPart(digestKey, 'path', value);
  } else if (choice.key === 'auto') {
    return dedupKey(source, digestKey);
  }
  return bodyKey(digestKey, source.body);
}

/** The value at a JSON path of the body as key text, or undefined (not JSON, too large or deep, absent, null). */
function pathValue(body: Buffer, path: string, maxBytes: number): string | undefined {
  const data = parseJsonWithin(body, maxBytes);
  if (data === undefined) return undefined;
  const value = lookup(data, parsePath(path));
  if (typeof value === 'symbol' || value === null) return undefined;
  // Nested within MAX_NESTING_DEPTH, so written back without overflowing the stack.
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The body's keyed digest as a key: what a body-digest dedup key and a handshake's key are. */
export const bodyKey = (digestKey: Buffer, body: Buffer) => `body-hmac:${keyedDigest(digestKey, body)}`;

/** The `auto` key: the sender's signed id, else an unsigned id header, else the body's digest. */
export function dedupKey({ kind, signedWith, headers, body, senderId }: DedupSource, digestKey: Buffer): string {
  if (kind === 'stripe') {
    const id = stripeEventId(body, signedWith);
    if (id) return keyPart(digestKey, 'event', id);
  } else if (signedWith !== null) {
    // Standard Webhooks' keys keep their name from before the catalog: a retry across an upgrade is one delivery.
    if (senderId) return keyPart(digestKey, signedWith === 'standard-webhooks' ? 'webhook-id' : 'sender-id', senderId);
  } else {
    const idempotencyKey = headerValue(headers, 'idempotency-key');
    if (idempotencyKey) return keyPart(digestKey, 'idempotency-key', idempotencyKey);
    const webhookId = headerValue(headers, 'webhook-id');
    if (webhookId) return keyPart(digestKey, 'webhook-id', webhookId);
  }
  return bodyKey(digestKey, body);
}
