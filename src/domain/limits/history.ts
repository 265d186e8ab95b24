/**
 * The run history and the fields seen: what the keeper reads and writes per step.
 */
import { KiB } from './units';

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
