/**
 * What a request may be: its body, its connection, its refusals, its secrets and headers.
 */
import { KiB, MiB } from './units';

// ---- Request bodies (defaults of the settings MAX_BODY_BYTES, INLINE_BODY_BYTES, MAX_INFLIGHT_BODY_BYTES) ----

/** Largest body a sender may post: a large CSV export fits; past it the receiver answers 413. */
export const DEFAULT_MAX_BODY_BYTES = 32 * MiB;
/**
 * Bodies up to this size travel inside the delivery workflow's input (and are prepared in a local
 * activity); larger ones are stored in chunks first. Far below the payload limit.
 */
export const DEFAULT_INLINE_BODY_BYTES = 128 * KiB;
/** Body bytes one receiver holds in memory at once; past it the receiver answers 503 with Retry-After. */
export const DEFAULT_MAX_INFLIGHT_BODY_BYTES = 256 * MiB;

/**
 * Body bytes one trigger's URL holds at once in one receiver (two of the largest bodies): past it
 * that URL is answered 503, while every other robot still has the rest of the budget. A body is
 * counted as its bytes arrive, never by the length it announces.
 */
export const DEFAULT_MAX_INFLIGHT_BODY_BYTES_PER_TRIGGER = 64 * MiB;

// ---- Connections and slow senders (defaults of the settings of the same names) ----------------------
// Real senders send their headers at once and their bodies at network speed; a sender who holds a
// connection open while sending nothing must not keep the receiver's memory, sockets or budget.

/** Time for a request's headers to arrive whole (Node's `headersTimeout`): 408 and closed past it. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** Time a body may go without a byte arriving: the request is answered 408 and its bytes given back. */
export const DEFAULT_BODY_IDLE_TIMEOUT_MS = 30_000;
/**
 * Time for a whole request (Node's `requestTimeout`): the largest body (32 MiB) at about 110 KB/s,
 * slower than any sender's network.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 300_000;
/** Connections one receiver keeps open at once (src/receiver/connections.ts): keep it under `ulimit -n`. */
export const DEFAULT_MAX_CONNECTIONS = 4096;
/**
 * Connections one client address may hold at once in one receiver (a proxy TRUST_PROXY names counts
 * only in the total): a sixteenth of the total, so one client cannot hold them all, while a sender
 * whose deliveries come from one address with dozens of connections in parallel fits many times over.
 */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 256;

// ---- Refusals (src/core/throttle.ts) ------------------------------------------------------------
// A refusal costs its sender nothing and the service a log line, a record or a hash: past these, a
// sender is answered 429 with Retry-After for the rest of the minute, and nothing is recorded.

/** Wrong or missing admin tokens one client address may send in a minute (AUTH_FAILURES_PER_MINUTE). */
export const DEFAULT_AUTH_FAILURES_PER_MINUTE = 20;
/** Deliveries one trigger may have recorded `rejected` (a failed signature check) a minute (REJECTED_PER_MINUTE). */
export const DEFAULT_REJECTED_PER_MINUTE = 60;
/**
 * Duplicates a URL gets recorded in its deliveries log per minute (each costs a describe and a
 * record); past it a duplicate is still answered 200 and counted in the metric, not recorded, so a
 * sender retrying in a loop cannot flood the log.
 */
export const DUPLICATES_LOGGED_PER_MINUTE = 60;
/** Client addresses or triggers the throttles remember at once; the oldest go first. */
export const THROTTLE_ENTRIES = 10_000;

// ---- Secrets ------------------------------------------------------------------------------------------

/**
 * Shortest signing secret a custom app or a payment provider connection takes: a shorter one can
 * be found from a single captured request by trying every value (the providers' own are 32+).
 */
export const MIN_SIGNING_SECRET_LENGTH = 16;

/** A header value kept with a delivery (for replay and inspection) is cut at this length. */
export const KEPT_HEADER_BYTES = 1 * KiB;

/**
 * A request to the codec endpoints (src/codec/routes.ts): the Temporal Web UI sends the payloads of
 * a page of history at once, each up to TEMPORAL_PAYLOAD_FAILS_BYTES.
 */
export const CODEC_BODY_BYTES = 64 * MiB;
/** A management API request's JSON body: robots and apps are small; past it the API answers 413. */
export const API_BODY_BYTES = 1 * MiB;
