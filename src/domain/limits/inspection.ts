/**
 * What the delivery inspector keeps of a request and reads back at once (docs/dashboard.md, "The
 * delivery inspector"): enough to see what a sender sent, never enough for a stranger to fill the
 * store through a URL or for a page to hold a whole large body.
 */
import { KiB } from './units';

/**
 * A request's headers kept for the inspector, all of them (credentials masked), up to this many bytes of
 * names and values together: Node refuses headers past 16 KiB (`--max-http-header-size`), so every real
 * sender's fit; past it the rest are counted, not kept. Each value is cut at KEPT_HEADER_BYTES besides.
 */
export const INSPECTED_HEADERS_BYTES = 16 * KiB;

/**
 * A body the receiver answers itself (refused, handshake) is kept up to this, so a person sees what was
 * sent: one refused delivery costs the store at most this, and the refusals recorded are throttled
 * (REJECTED_PER_MINUTE per URL), so a stranger holding a URL fills at most that many times it a minute.
 */
export const REFUSED_BODY_KEPT_BYTES = 64 * KiB;

/**
 * A page of a body as the inspector reads it (GET /api/deliveries/:id/body): a 32 MiB body is read a page at
 * a time, so the page in the browser holds one page, never the whole body.
 */
export const BODY_PAGE_BYTES = 64 * KiB;

/**
 * Deliveries one filtered read of the deliveries log looks at (outcome, time, event name): the store has
 * no index a filter could use (FerretDB), so a filter walks the log's blocks by `_id`, newest first, and
 * stops here with a cursor to go on: a request costs at most this many entries' blocks.
 */
export const DELIVERY_FILTER_SCAN = 5_000;

/** A sender's event name kept with a delivery (`x-github-event`, Stripe's `type`) is cut at this length. */
export const EVENT_NAME_CHARS = 120;

/** A delivery's runs named in its answer (their ids; the rest are in the run history): one page of the log's. */
export const DELIVERY_RUN_IDS = 20;
