/**
 * Spec rule: duplicate deliveries make one run. Its one home: the dedup key of a delivery, the
 * delivery workflow ID derived from it, the reuse policy its start uses and how long a repeat is
 * recognised. Temporal itself refuses a second workflow with the same ID (docs/api.md,
 * Deduplication), so a repeat is answered 200 and makes no run.
 *
 * The key:
 * - payment provider: the event's `id`;
 * - custom app: the sender's own delivery id when its signature scheme has one (`webhook-id`,
 *   `X-GitHub-Delivery`, `X-Shopify-Webhook-Id`), else the `Idempotency-Key` header, else
 *   `webhook-id` (Standard Webhooks), else the SHA-256 of the raw body;
 * - a replay: `replay:<original delivery id>:<n>`, the n-th replay of that delivery;
 * always scoped to the trigger identifier.
 */
import { sha256Hex } from './secrets';
import type { TriggerKind } from './types';

/** The delivery workflow's ID: one per trigger and key, so the engine refuses a repeat. */
export function deliveryWorkflowId(triggerIdentifier: string, key: string): string {
  return `delivery:${triggerIdentifier}:${key}`;
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

type Headers = Record<string, string | string[] | undefined>;

/** Header values are used as they are when short and printable, else by their hash. */
function keyPart(source: string, value: string): string {
  return /^[\x21-\x7e]{1,200}$/.test(value) ? `${source}:${value}` : `${source}-sha256:${sha256Hex(value)}`;
}

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function stripeEventId(body: Buffer): string | undefined {
  try {
    const event = JSON.parse(body.toString('utf8')) as unknown;
    const id = (event as { id?: unknown } | null)?.id;
    return typeof id === 'string' && id.length > 0 ? id : undefined;
  } catch {
    return undefined; // not JSON: the body hash is the key, and parsing will record the error
  }
}

/** The key of the n-th replay (from 1) of a delivery. */
export function replayKey(originalDeliveryId: string, n: number): string {
  return `replay:${originalDeliveryId}:${n}`;
}

/** `senderId`: the delivery id the custom app's signature scheme carries, when there is one. */
export function dedupKey(
  kind: TriggerKind,
  headers: Headers,
  body: Buffer,
  senderId?: { header: string; value: string },
): string {
  if (kind === 'stripe') {
    const id = stripeEventId(body);
    if (id) return keyPart('event', id);
  } else {
    if (senderId) return keyPart(senderId.header, senderId.value);
    const idempotencyKey = header(headers, 'idempotency-key');
    if (idempotencyKey) return keyPart('idempotency-key', idempotencyKey);
    const webhookId = header(headers, 'webhook-id');
    if (webhookId) return keyPart('webhook-id', webhookId);
  }
  return `sha256:${sha256Hex(body)}`;
}
