/**
 * Spec rule: duplicate deliveries make one run. Its one home: the dedup key of a delivery, the
 * delivery workflow ID derived from it, the reuse policy its start uses and how long a repeat is
 * recognised. Temporal itself refuses a second workflow with the same ID (docs/api.md,
 * Deduplication), so a repeat is answered 200 and makes no run.
 *
 * The key is taken from what the sender signed, when it must sign, so that a captured signed
 * request sent again with another unsigned header is still the same delivery:
 * - payment provider: the event's `id` (inside the signed body);
 * - custom app with a verification scheme: standard-webhooks' `webhook-id` (it is signed); for
 *   every other scheme (GitHub, Shopify, Slack, any HMAC), which sign the body, the body's digest.
 *   Their delivery id headers (`X-GitHub-Delivery`, `X-Shopify-Webhook-Id`) label a delivery (they
 *   are kept with it) but never make it new;
 * - custom app without one (nothing is signed): the `Idempotency-Key` header, else `webhook-id`,
 *   else the body's digest;
 * - a replay: `replay:<original delivery id>:<n>`, the n-th replay of that delivery;
 * always scoped to the trigger identifier.
 *
 * A digest is keyed (HMAC-SHA256 with a key derived from SECRETS_KEY): keys end up in workflow IDs
 * and log lines, and a bare hash of a short body could be reversed by guessing. Every workflow ID
 * fits Temporal server's limit (TEMPORAL_MAX_ID_BYTES) whatever the sender sends: a header value
 * that would not fit, or is not printable ASCII, is used by its digest.
 */
import { headerValue, type RequestHeaders } from './headers';
import { TEMPORAL_MAX_ID_BYTES } from './limits';
import { keyedDigest } from './secrets';
import type { TriggerKind } from './types';

/** The workflow ID's prefix before the trigger identifier. */
const WORKFLOW_ID_PREFIX = 'delivery:';
/** The longest trigger identifier: `custom:` or `stripe:` and a UUID (src/domain/ids.ts). */
const IDENTIFIER_MAX_BYTES = 'custom:'.length + 36;
/** The longest key: what is left of TEMPORAL_MAX_ID_BYTES in `delivery:<identifier>:<key>`. */
export const DEDUP_KEY_MAX_BYTES = TEMPORAL_MAX_ID_BYTES - WORKFLOW_ID_PREFIX.length - IDENTIFIER_MAX_BYTES - 1;

/** The delivery workflow's ID: one per trigger and key, so the engine refuses a repeat. */
export function deliveryWorkflowId(triggerIdentifier: string, key: string): string {
  return `${WORKFLOW_ID_PREFIX}${triggerIdentifier}:${key}`;
}

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
}

/** A header value is used as it is when printable and short enough, else by its keyed digest. */
function keyPart(digestKey: Buffer, source: string, value: string): string {
  const plain = `${source}:${value}`;
  return /^[\x21-\x7e]+$/.test(value) && plain.length <= DEDUP_KEY_MAX_BYTES
    ? plain
    : `${source}-hmac:${keyedDigest(digestKey, value)}`;
}

function stripeEventId(body: Buffer): string | undefined {
  try {
    const event = JSON.parse(body.toString('utf8')) as unknown;
    const id = (event as { id?: unknown } | null)?.id;
    return typeof id === 'string' && id.length > 0 ? id : undefined;
  } catch {
    return undefined; // not JSON: the body's digest is the key, and parsing will record the error
  }
}

/** The key of a test delivery (POST /api/robots/:id/test-delivery): its own, so each one runs. */
export function testDeliveryKey(deliveryId: string): string {
  return `test:${deliveryId}`;
}

/** The key of the n-th replay (from 1) of a delivery. */
export function replayKey(originalDeliveryId: string, n: number): string {
  return `replay:${originalDeliveryId}:${n}`;
}

/** The delivery's key; `digestKey` keys its digests (derivedKey(SECRETS_KEY, 'dedup')). */
export function dedupKey({ kind, signedWith, headers, body }: DedupSource, digestKey: Buffer): string {
  if (kind === 'stripe') {
    const id = stripeEventId(body);
    if (id) return keyPart(digestKey, 'event', id);
  } else if (signedWith === 'standard-webhooks') {
    // The scheme signs `webhook-id.timestamp.body`: its id is signed material.
    const id = headerValue(headers, 'webhook-id');
    if (id) return keyPart(digestKey, 'webhook-id', id);
  } else if (signedWith === null) {
    const idempotencyKey = headerValue(headers, 'idempotency-key');
    if (idempotencyKey) return keyPart(digestKey, 'idempotency-key', idempotencyKey);
    const webhookId = headerValue(headers, 'webhook-id');
    if (webhookId) return keyPart(digestKey, 'webhook-id', webhookId);
  }
  return `body-hmac:${keyedDigest(digestKey, body)}`;
}
