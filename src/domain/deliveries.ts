/**
 * Spec rules for a delivery (one request to a trigger's URL), in one place:
 *
 * - **Answered at once.** POST and PUT answer 200 with an empty body once the delivery is durable;
 *   the work happens in the background (src/receiver/webhooks.ts).
 * - **Empty body: dropped.** No run, no record, still 200 (`isEmptyBody`).
 * - **Body format.** The body is parsed in the custom app's body format (json, xml, csv, text),
 *   never by its Content-Type (./body-formats).
 * - **CSV: one run per row.** The whole CSV is read before any run is stored, so a bad row half
 *   way makes no run at all (src/deliveries/prepare.ts).
 * - **Filtered.** A delivery the robot's trigger rules stop makes no run: recorded as `filtered`
 *   with the condition that stopped it. A CSV's rows are tested one by one: those stopped make no
 *   run and are counted (`filteredRows`); a CSV whose every row is stopped is filtered. A payment
 *   provider trigger's `events` list is such a rule: another event type is filtered (before 0.6:
 *   dropped) with the reason `event type "…" is not selected` (`eventTypeStop`; ./trigger-rules).
 * - **Unparsable: failed.** A body that does not parse makes no run; the delivery is recorded as
 *   failed with the parser's error, and its workflow fails, which frees its ID for a later genuine
 *   delivery (workflows/delivery.ts).
 * - **Over a cap: failed.** A delivery that would make more rows, columns, cell bytes or trigger
 *   data than its cap allows (DeliveryCaps, ./body-formats; why: ./limits) makes no run; it is
 *   recorded as failed naming the cap's setting (`over CSV_MAX_ROWS: …`). Nothing is padded: a
 *   short CSV row has only the columns it has.
 * - **Body gone: failed.** A delivery whose stored body is no longer there (it can never succeed)
 *   fails once with that reason instead of being retried.
 * - **Forged: rejected.** A payment provider delivery whose signature does not verify, when the
 *   trigger has a signing secret, is recorded as rejected and answered 400 (./senders/catalog/stripe.ts).
 * - **Forged: rejected** too for a custom app with a `verification` scheme (./verification).
 * - **Duplicate: one run.** See ./dedup. A repeat is recorded as `duplicate` with the delivery
 *   it repeats (`duplicate of <id>`), up to DUPLICATES_LOGGED_PER_MINUTE per URL.
 * - **Paused: held.** A delivery to a paused robot is accepted (200, deduplicated) and waits; the
 *   robot's resume releases what waits in arrival order (src/deliveries/hold.ts).
 * - **Kept for replay.** Its raw body and the headers in `KEPT_HEADERS` (with those its app's
 *   scheme reads) are kept as long as the delivery is in the history (`keptHeaders`).
 * - **Kept for the inspector.** Every delivery keeps its request (every header, credentials masked)
 *   and its sender's event name (./inspection.ts); one the receiver answers itself (refused, a
 *   handshake) keeps its body's first REFUSED_BODY_KEPT_BYTES, within the refusal throttle.
 *
 * Every one of these outcomes is recorded by the same function, `deliveryRecord`.
 */
import { headerValue, type RequestHeaders } from './headers';
import { KEPT_HEADER_BYTES } from './limits';
import type { BodyFormat, DeliveryFailure, DeliveryRecord, JsonValue, RequestCapture, TriggerKind } from './types';
import { CompiledRules, type TriggerRules } from './trigger-rules';

/** Headers kept with every delivery, besides those its app's signature scheme reads. */
const KEPT_HEADERS = ['idempotency-key', 'webhook-id', 'stripe-signature'];

/**
 * The kept headers a request had, by lower-case name (read as headers.ts reads them; cut to
 * KEPT_HEADER_BYTES), never one of `credentials` (a sender's credential header), whoever asked for it.
 */
export function keptHeaders(
  headers: RequestHeaders,
  names: readonly string[],
  credentials: readonly string[] = [],
): Record<string, string> {
  const kept: Record<string, string> = {};
  const never = new Set(credentials.map((n) => n.toLowerCase()));
  for (const name of new Set([...KEPT_HEADERS, ...names].map((n) => n.toLowerCase()))) {
    if (never.has(name)) continue;
    const value = headerValue(headers, name);
    if (value !== undefined) kept[name] = value.slice(0, KEPT_HEADER_BYTES);
  }
  return kept;
}

/** An empty body is dropped before anything is stored or started. */
export function isEmptyBody(size: number): boolean {
  return size === 0;
}

/** The payment provider trigger's `events` list as a trigger rule: the event's type is one of them. */
function eventTypeRules(trigger: { kind: TriggerKind; events?: string[] }): TriggerRules | null {
  if (trigger.kind !== 'stripe' || !trigger.events?.length) return null;
  return { match: 'all', conditions: [{ field: 'trigger.type', op: 'in', value: trigger.events }] };
}

/** Why a payment provider event is filtered by the trigger's `events` list, or null when it is kept. */
export async function eventTypeStop(
  trigger: { kind: TriggerKind; events?: string[] },
  data: JsonValue,
): Promise<string | null> {
  const rules = eventTypeRules(trigger);
  if (!rules || (await new CompiledRules(rules).stopReason({ trigger: data, headers: {} })) === null) return null;
  const type = data !== null && typeof data === 'object' && !Array.isArray(data) ? data.type : undefined;
  return `event type ${JSON.stringify(type ?? null)} is not selected`;
}

/** What is known of a delivery as it arrived. */
export interface ReceivedDelivery {
  deliveryId: string;
  robotId: string;
  triggerIdentifier: string;
  workflowId: string | null;
  dedupKey: string;
  receivedAt: Date;
  contentType: string | null;
  size: number;
  verified: boolean | null;
  /** The steps version its runs execute, where its body is kept, its kept headers and what it replays. */
  stepsVersion?: number;
  body?: { ownerId: string; chunks: number } | null;
  headers?: Record<string, string>;
  replayOf?: string | null;
  /** A test delivery (src/deliveries/test-delivery.ts). */
  test?: true;
  /** The request as the inspector shows it, its event name and its body's bytes kept when cut (./inspection.ts). */
  request?: RequestCapture;
  event?: string;
  bodyKeptBytes?: number;
  /** The status its sender was answered, for one the receiver answers itself (refused, a handshake, a repeat). */
  answered?: number;
}

/** What became of a delivery. */
export type DeliveryVerdict =
  | {
      outcome: 'processed';
      format: BodyFormat;
      stepCount: number;
      runCount: number;
      previewsJson: string;
      fieldsJson?: string;
      /** A CSV's rows the trigger rules stopped. */
      filteredRows?: number;
    }
  | {
      outcome: 'dropped' | 'filtered';
      format: BodyFormat;
      stepCount: number;
      reason: string;
      fieldsJson?: string;
      filteredRows?: number;
    }
  | { outcome: 'failed'; format: BodyFormat; stepCount: number; error: string; failure: DeliveryFailure }
  /** Refused by the receiver before any workflow: nothing was parsed. */
  | { outcome: 'rejected'; reason: string }
  /** A sender's check of the URL, answered by the receiver (src/domain/senders/): no workflow, no run. */
  | { outcome: 'handshake' }
  /** A repeat within its window (./dedup.ts): no run; the delivery it repeats, when known. */
  | { outcome: 'duplicate'; duplicateOf: string | null };

/** The record of a delivery in its robot's history, whatever its outcome. */
export function deliveryRecord(received: ReceivedDelivery, verdict: DeliveryVerdict): DeliveryRecord {
  const rejected = verdict.outcome === 'rejected';
  // Answered by the receiver: nothing was parsed, nothing ran.
  const atReceiver = rejected || verdict.outcome === 'handshake' || verdict.outcome === 'duplicate';
  return {
    _id: received.deliveryId,
    robotId: received.robotId,
    triggerIdentifier: received.triggerIdentifier,
    workflowId: received.workflowId,
    dedupKey: received.dedupKey,
    receivedAt: received.receivedAt,
    format: atReceiver ? 'json' : verdict.format,
    contentType: received.contentType,
    size: received.size,
    outcome: verdict.outcome,
    runCount: verdict.outcome === 'processed' ? verdict.runCount : 0,
    reason:
      verdict.outcome === 'duplicate'
        ? `duplicate of ${verdict.duplicateOf ?? 'an earlier delivery'}`
        : verdict.outcome === 'dropped' || verdict.outcome === 'filtered' || rejected
          ? verdict.reason
          : null,
    error: verdict.outcome === 'failed' ? verdict.error : null,
    verified: rejected ? false : received.verified,
    stepCount: atReceiver ? 0 : verdict.stepCount,
    previewsJson: verdict.outcome === 'processed' ? verdict.previewsJson : '[]',
    ...(received.stepsVersion === undefined ? {} : { stepsVersion: received.stepsVersion }),
    body: received.body ?? null,
    headersJson: JSON.stringify(received.headers ?? {}),
    replayOf: received.replayOf ?? null,
    ...(received.test ? { test: true as const } : {}),
    ...('fieldsJson' in verdict && verdict.fieldsJson !== undefined ? { fieldsJson: verdict.fieldsJson } : {}),
    ...('filteredRows' in verdict && verdict.filteredRows ? { filteredRows: verdict.filteredRows } : {}),
    ...(received.request ? { requestJson: JSON.stringify(received.request) } : {}),
    ...(received.event === undefined ? {} : { event: received.event }),
    ...(received.bodyKeptBytes === undefined ? {} : { bodyKeptBytes: received.bodyKeptBytes }),
    ...(received.answered === undefined ? {} : { answered: received.answered }),
    ...(verdict.outcome === 'duplicate' && verdict.duplicateOf ? { duplicateOf: verdict.duplicateOf } : {}),
  };
}
