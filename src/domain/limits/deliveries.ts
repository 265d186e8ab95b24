/**
 * What one delivery may make and how it is worked: its caps, its parsing, its stored bytes, its
 * fan-out into runs.
 */
import { DEFAULT_MAX_BODY_BYTES } from './requests';
import { KiB, MiB } from './units';

// ---- Work per delivery (defaults of CSV_MAX_ROWS, CSV_MAX_COLUMNS, CSV_MAX_CELL_BYTES, MAX_TRIGGER_BYTES and -ITEMS)
// One delivery is one sender's request; what it may make is capped so that no sender can queue days
// of runs for every other robot (a 32 MiB body of `a\n` lines would make 16.7 million runs) or
// turn a small body into gigabytes of trigger data. A delivery past a cap is recorded `failed`
// naming the cap's setting, and makes no run (src/domain/deliveries.ts).

/** Runs one CSV delivery may make: a real export of a million customers fits. */
export const DEFAULT_CSV_MAX_ROWS = 1_000_000;
/** Columns of a CSV row, the header included: wider than any spreadsheet export people send. */
export const DEFAULT_CSV_MAX_COLUMNS = 1000;
/** Bytes of one CSV cell (a header cell too): a long description or an embedded document fits. */
export const DEFAULT_CSV_MAX_CELL_BYTES = 1 * MiB;
/**
 * Bytes of one column's name (a header cell): longer than any export's column names. A name is
 * repeated in every row's trigger data, so a long one multiplies by the row count (a 1 MiB name over
 * 500 one-character rows was 1.05 MB sent and 524 MB of trigger data).
 */
export const DEFAULT_CSV_MAX_HEADER_CELL_BYTES = 256;
/**
 * Bytes of trigger data (as JSON) one delivery makes, all its runs together: a 32 MiB export of a
 * million rows with ten named columns is about 200 MB; a header of 200 columns over 20,000 one-cell
 * rows (80 KB sent, 834 MB of trigger data when rows were padded to the header) is refused.
 */
export const DEFAULT_MAX_TRIGGER_BYTES = 512 * MiB;
/**
 * Items (objects, arrays, strings, numbers, booleans, nulls) of one trigger data value parsed from
 * a json or xml body (default of MAX_TRIGGER_ITEMS), counted in a pass over the bytes before the
 * parser builds anything: the heap a parse takes grows with its items, about 100 bytes each (a 32
 * MiB body of small objects, some 5 million items, took +541 MiB), so a million (about 100 MB) is
 * what one large body may cost. Webhook events have hundreds; a form has at most FORM_MAX_FIELDS
 * fields of MAX_NESTING_DEPTH levels (512,000), counted too; a CSV row has CSV_MAX_COLUMNS.
 */
export const DEFAULT_MAX_TRIGGER_ITEMS = 1_000_000;

/**
 * Rows a URL's CSV deliveries may make into runs in an hour (default of the setting
 * FANOUT_ROWS_PER_HOUR; counted by the hour the delivery arrived, across every worker,
 * src/deliveries/fanout-quota.ts): the largest CSV a delivery may be (CSV_MAX_ROWS) once an hour.
 * A sender repeating it cannot queue more; a CSV past what is left of its hour is failed naming the
 * setting and makes no run. Set it to what the stack runs in an hour to keep any URL within it.
 */
export const DEFAULT_FANOUT_ROWS_PER_HOUR = DEFAULT_CSV_MAX_ROWS;
/**
 * Rows every URL of a workspace together may make into runs in an hour (default of the setting
 * FANOUT_ROWS_PER_HOUR_PER_WORKSPACE, counted as the URL's): twice one URL's, so a workspace may
 * have two URLs at their full hour, and a customer opening many URLs still cannot queue more than
 * that ahead of the others' runs. Set it to what the stack runs in an hour divided by the
 * workspaces that must be able to use it at once.
 */
export const DEFAULT_FANOUT_ROWS_PER_HOUR_PER_WORKSPACE = 2 * DEFAULT_FANOUT_ROWS_PER_HOUR;

// ---- Parsing ------------------------------------------------------------------------------------

/**
 * Trigger data nested deeper than this is refused: deeper values cannot be written back as JSON
 * (JSON.stringify recurses) for the run, the engine's payloads or the step outputs.
 */
export const MAX_NESTING_DEPTH = 512;
/**
 * Fields of a form body (src/domain/form-bodies.ts), urlencoded or multipart with its files: PHP's
 * own cap (`max_input_vars`), far more than senders post (a Slack command has about 12, a Mailchimp
 * event a few dozen). A field costs its sender two bytes (`a&`) and is a key or an array item of the
 * trigger data: a 32 MiB body of them would be 16 million. Past it the body is refused, unparsed.
 */
export const FORM_MAX_FIELDS = 1000;
/**
 * Parts of a multipart form, its files and the parts it skips (no form-data disposition) included:
 * each part is a field, so as many as FORM_MAX_FIELDS. busboy reads no part past it.
 */
export const MULTIPART_MAX_PARTS = FORM_MAX_FIELDS;
/**
 * Bytes of one text field of a multipart form: as many as the largest body, so no field a body may
 * carry is refused (SendGrid's Inbound Parse posts a whole raw e-mail, up to 30 MB, as one field).
 * busboy's own default (1 MiB) would cut such a field; a field past the cap is refused, never kept cut.
 */
export const MULTIPART_MAX_FIELD_BYTES = DEFAULT_MAX_BODY_BYTES;
/** Bytes handed to the CSV parser at a time: the parser's output is consumed between slices. */
export const CSV_SLICE_BYTES = 64 * KiB;
/** How often (in CSV rows) long passes over a body report a heartbeat. */
export const HEARTBEAT_ROWS = 1000;

/**
 * Bytes of a body the receiver parses to read a dedup key from it (a payment event's id, an app's
 * JSON path), on its event loop, before it answers: where only the sender holding the signing
 * secret can make it parse (the key is read after the signature verified), a payment event of any
 * size Stripe sends (1 MiB: about 40 ms of parsing here); where anyone with the URL can, 64 KiB
 * (a few ms), plenty for an id. A larger body, or one nested deeper than MAX_NESTING_DEPTH, is keyed
 * by its digest instead. A sender whose credential is inside its body is read no further before
 * the credential is checked (./unsigned-parsing.ts).
 */
export const DEDUP_PARSE_BYTES_SIGNED = 1 * MiB;
export const DEDUP_PARSE_BYTES = 64 * KiB;

// ---- Stored bytes -------------------------------------------------------------------------------

/**
 * How long an insert may take before it is given up (and its activity retries it; every insert has a
 * deterministic id, so a retry that meets what the first attempt stored changes nothing). The MongoDB
 * driver (6.x and 7.x alike) waits for a large command's socket buffer to drain with no end if the
 * connection then closes without an error: the store was killed while an insert of a few hundred
 * kilobytes was being written (the FerretDB fault test, 2026-11-28, an `insert` open for 15 minutes).
 * The grouped inserts wait behind that one, so every delivery of the worker waited with it. Far above
 * what any insert takes (a 500-document group on FerretDB under load: well under a second).
 */
export const STORE_INSERT_DEADLINE_MS = 60_000;
/** Chunks of a stored body or large JSON: below the document limit with room to spare. */
export const BLOB_CHUNK_BYTES = 4 * MiB;
/** JSON text (trigger data, a step's output) up to this size is kept on its document; larger goes to chunks. */
export const INLINE_JSON_BYTES = 1 * MiB;

// ---- Fanning a delivery out to runs ---------------------------------------------------------------

/** Trigger data up to this size travels in the run workflow's input; larger is read from the stored run. */
export const TRIGGER_INLINE_BYTES = 16 * KiB;
/** Runs stored per insert while fanning a CSV out. */
export const RUN_INSERT_BATCH = 1000;
/** Inline trigger data in one answer of prepareDelivery or nextRuns: where Temporal starts warning. */
export const SEEDS_MAX_BYTES = 512 * KiB;
/**
 * CSV deliveries whose place a worker remembers between batches (src/deliveries/csv-runs.ts): a few
 * numbers each, so every CSV fanning out on a worker at once keeps its own; past it the oldest is
 * read from its first row again.
 */
export const CSV_PLACES = 10_000;
/** Runs the delivery workflow starts together. */
export const RUN_START_BATCH = 500;
/**
 * Runs started by one workflow run before it continues as new: its history (a few events per
 * child) stays far below TEMPORAL_HISTORY_EVENTS and it never has TEMPORAL_PENDING_CHILDREN pending.
 */
export const RUNS_PER_CONTINUATION = 1000;
/** A workflow run also continues as new once the trigger data it passed to children reaches this. */
export const CONTINUATION_BYTES = 4 * MiB;
