/**
 * Every size and batch limit of the service, each with why it has its value. Timing constants
 * (pauses, ticks, time-outs) stay at the top of the module that waits. Imports nothing: the
 * workflow bundle, the bench and the tests read limits from here.
 *
 * The hard limits they are sized against (not settings: the engines refuse past them) are the
 * first four constants.
 */

const KiB = 1024;
const MiB = 1024 * KiB;

// ---- What the engines refuse ------------------------------------------------------------------

/** Temporal fails a payload (an activity's answer, a workflow's input) over 2 MB; it warns from 512 KiB. */
export const TEMPORAL_PAYLOAD_FAILS_BYTES = 2 * 1000 * 1000;
/** Temporal terminates a workflow run whose history reaches 51,200 events. */
export const TEMPORAL_HISTORY_EVENTS = 51_200;
/** Temporal refuses to start a child while a workflow run has 2,000 children pending. */
export const TEMPORAL_PENDING_CHILDREN = 2000;
/**
 * Temporal server refuses a workflow ID over 255 bytes (`limit.maxIDLength`; its SQL schemas' ID
 * columns are VARCHAR(255)). The dev server allows 1,000, so only a real server shows it.
 */
export const TEMPORAL_MAX_ID_BYTES = 255;
/**
 * Temporal keeps recently written history events in a cache per history shard
 * (`history.eventsCacheMaxSizeBytes`), 512 KiB by default: sized for clusters of hundreds of shards,
 * while the dev server has one and the cluster four. A fan-out writes RUN_START_BATCH child-start
 * events at once, and starting each child reads its event back: when the batch does not fit, every
 * start reads and decodes the whole batch from the store again (2,000 rows, every feature on: 45.7
 * against 28.3 ms of server CPU per run, docs/benchmark.md). A batch of the largest inline trigger
 * data (TRIGGER_INLINE_BYTES each, 8.5 MB) fits; a typical batch (about 1 KB a child) thirty times over.
 */
export const TEMPORAL_EVENTS_CACHE_BYTES_PER_SHARD = 16 * MiB;
/** MongoDB and FerretDB refuse a document over 16 MiB. */
export const DOCUMENT_BYTES = 16 * MiB;

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

// ---- Work per delivery (defaults of CSV_MAX_ROWS, CSV_MAX_COLUMNS, CSV_MAX_CELL_BYTES, MAX_TRIGGER_BYTES) ----
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
 * Rows a URL's CSV deliveries may make into runs in an hour (default of the setting
 * FANOUT_ROWS_PER_HOUR; counted by the hour the delivery arrived, across every worker,
 * src/deliveries/fanout-quota.ts): the largest CSV a delivery may be (CSV_MAX_ROWS) once an hour.
 * A sender repeating it cannot queue more; a CSV past what is left of its hour is failed naming the
 * setting and makes no run. Set it to what the stack runs in an hour to keep any URL within it.
 */
export const DEFAULT_FANOUT_ROWS_PER_HOUR = DEFAULT_CSV_MAX_ROWS;

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
 * by its digest instead.
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

// ---- The run history (docs/storage.md) ------------------------------------------------------------

/** Items per history block: one page of the API's default size. */
export const BLOCK_SIZE = 50;
/** Trigger data up to this size is shown in run lists; larger is read with the run. */
export const PREVIEW_BYTES = 1 * KiB;
/**
 * Slots the keeper reads at once at most while new deliveries keep coming: a step reads one, then
 * twice as many each time all were claimed (1, 2, 4, …), so that a look at a robot with a few new
 * deliveries does not read 64 slots for them (issue 44: 6 reads a delivery at 20 a second).
 */
export const SLOT_BATCH = 64;
/**
 * How long a recorder trusts the next slot it remembers for a robot (src/history/slots.ts). A busy
 * recorder claims again long before, so its claims go out without a read. One quiet for longer looks
 * for the first free slot from the keeper's tally again (three reads or so): since it last claimed,
 * other processes may have claimed the slot it remembers, and retention removed it after the keeper
 * listed it (RETENTION_SLOT_LAG_MS later), and a claim stored there would never be listed.
 */
export const SLOT_HINT_MS = 1000;
/**
 * Retention removes a slot only once the stored tally has passed it for this long (the keeper's
 * own clock): far past SLOT_HINT_MS, so no recorder still trusts a hint that points at it, even
 * when a delivery is recorded already expired (a held one released after HISTORY_RETENTION) and on
 * a machine that stalls for seconds. Against a retention of days, 30 s more costs nothing.
 */
export const RETENTION_SLOT_LAG_MS = 30 * SLOT_HINT_MS;
/** Deliveries the keeper takes per step at most. */
export const TAKE_PER_STEP = 1024;
/** Runs the keeper places per step: 40 preview pages. */
export const PLACE_PER_STEP = 2000;
/** Bounds of how many unfinished runs the keeper looks up per round, and its rounds per step. */
export const POLL_MIN = 8;
export const POLL_MAX = 512;
export const POLL_ROUNDS = 4;
/** Unfinished runs looked at per round for one that is due (runs in their pause are passed over). */
export const POLL_SCAN = 4096;
/** Runs retention removes per step while the robot has runs going, and while it is idle. */
export const REMOVE_PER_STEP_BUSY = 20;
export const REMOVE_PER_STEP_IDLE = 200;

// ---- Fields seen (src/domain/fields.ts, docs/api.md#fields-seen) ----------------------------------

/** Deliveries whose fields a robot's list is made of: enough to see what varies, few enough to read at once. */
export const FIELDS_DELIVERIES = 100;
/** Deliveries log entries looked through for them (10 blocks): rejected and failed ones carry no fields. */
export const FIELDS_LOG_SCAN = 500;
/** Paths kept per delivery: a picker is for choosing, and the record stays small (a few KiB). */
export const FIELD_PATHS_PER_DELIVERY = 200;
/** Longest path kept: deeper nesting is cut rather than grown without bound by a hostile body. */
export const FIELD_PATH_CHARS = 200;
/** An example value is cut to this: enough to recognise it, not to copy data out of the history. */
export const FIELD_EXAMPLE_CHARS = 40;
/** Rows of a CSV its fields are read from: its columns are the header's, so the first page shows them. */
export const FIELDS_CSV_ROWS = BLOCK_SIZE;

// ---- Trigger rules (src/domain/trigger-rules.ts, docs/api.md#trigger-rules) ---------------------------

/** Conditions per robot: a filter, not a program; each is tested on every delivery (and CSV row). */
export const TRIGGER_RULES_MAX = 20;
/** Items of an `in` / `notIn` list. */
export const RULE_LIST_ITEMS = 100;
/** Characters of a `matches` pattern. */
export const RULE_PATTERN_CHARS = 200;
/**
 * Instructions of a pattern's compiled program. RE2's time is linear in the text, but its cost per
 * character grows with the program: a counted repetition makes it large (an e-mail pattern with
 * `{1,64}` and `{1,255}` is 650 instructions, about 5 µs a character on text made against it;
 * `[ab]{0,95}[^ab]`, 193 instructions, about 6 µs). At 100, the patterns people write to filter
 * (`^refs/heads/main$` 19, `[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$` 12, `(?i)^(push|release)$` 31) fit
 * many times over, and the worst costs about 2 µs a character (measured with re2js 2.10 here).
 */
export const RULE_PATTERN_INSTRUCTIONS = 100;
/**
 * Characters of a value a pattern is tested on (a longer value is cut): the sender chooses the
 * length, and one value should not use a delivery's whole budget.
 */
export const RULE_MATCH_CHARS = 64 * KiB;
/**
 * Characters a delivery's patterns may test in all, across its values, CSV rows and conditions
 * (default of the setting RULE_MATCH_CHARS_PER_DELIVERY): about 2 s of a worker at the worst
 * allowed pattern, while a CSV of 100,000 rows whose tested column has 10 characters fits. Past
 * it the delivery is failed naming the setting, and makes no run.
 */
export const DEFAULT_RULE_MATCH_CHARS_PER_DELIVERY = 1 * MiB;
/** Characters tested between two turns of the event loop (and heartbeats): a few ms at the worst pattern. */
export const RULE_YIELD_CHARS = 4 * KiB;
/** Bytes of a condition's value as JSON. */
export const RULE_VALUE_BYTES = 4 * KiB;

// ---- Management API ------------------------------------------------------------------------------

/** Robots `GET /api/robots` lists (newest first), each with its counts. */
export const ROBOTS_LISTED = 1000;

// ---- Replay and pause (docs/api.md) -----------------------------------------------------------------

/** Deliveries a bulk replay reads (one page of the log) and starts at a time. */
export const REPLAY_BATCH = 100;
/** Deliveries one bulk replay request replays at most; its `nextCursor` goes on from there. */
export const REPLAYS_PER_REQUEST = 1000;
/** Held deliveries a resume lists from Temporal per page while it releases them. */
export const RELEASE_PAGE = 100;

// ---- Token rotation (docs/api.md) ------------------------------------------------------------------

/** The longest grace an old token may keep after a rotation: a week. */
export const MAX_GRACE_HOURS = 168;
/** The grace when the rotation names none: a day, time to update the sender. */
export const DEFAULT_GRACE_HOURS = 24;

// ---- Worker memory --------------------------------------------------------------------------------

/** Robots whose settings a worker keeps (src/robots/settings.ts); the oldest goes first. */
export const ROBOTS_KEPT = 1000;
/** Large trigger data a worker keeps for a run's next steps (src/runs/steps.ts); the oldest goes first. */
export const STORED_TRIGGERS_KEPT = 16;
/**
 * Outcomes of runs ended in a worker that its history keeper has not counted yet (src/history/
 * heard-outcomes.ts): a hint that saves a read per run; past it the oldest are read back instead.
 */
export const HEARD_OUTCOMES_KEPT = 50_000;

// ---- Receiver memory ------------------------------------------------------------------------------

/** Triggers a receiver keeps in memory; the oldest goes first. */
export const TRIGGER_CACHE_ENTRIES = 10_000;
/** Notes of unconfirmed bodies looked at per sweep. */
export const SWEEP_BATCH = 100;
/** Workflows whose expected failure was logged and whose SDK "Workflow failed" line is still to come. */
export const EXPECTED_FAILURES_REMEMBERED = 1000;
