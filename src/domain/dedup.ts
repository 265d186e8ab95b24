/**
 * The dedup key of a delivery, and the delivery workflow ID derived from it. Temporal refuses
 * a second workflow with the same ID (see README, Deduplication), so repeats make no run.
 *
 * - payment provider: the event's `id`;
 * - custom app: the `Idempotency-Key` header, else `webhook-id` (Standard Webhooks), else the
 *   SHA-256 of the raw body;
 * always scoped to the trigger identifier.
 */
import { sha256Hex } from './secrets';
import type { TriggerKind } from './types';

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

export function dedupKey(kind: TriggerKind, headers: Headers, body: Buffer): string {
  if (kind === 'stripe') {
    const id = stripeEventId(body);
    if (id) return keyPart('event', id);
  } else {
    const idempotencyKey = header(headers, 'idempotency-key');
    if (idempotencyKey) return keyPart('idempotency-key', idempotencyKey);
    const webhookId = header(headers, 'webhook-id');
    if (webhookId) return keyPart('webhook-id', webhookId);
  }
  return `sha256:${sha256Hex(body)}`;
}
