/**
 * The management API: its lists, bulk replay and pause, token rotation.
 */

// ---- Management API ------------------------------------------------------------------------------

/**
 * Robots a page of `GET /api/robots` shows (newest first), each with its counts, unless `limit`
 * says otherwise: a screen's worth. Each shown robot costs reads by `_id` (its tally); the list and
 * the search by name are answered from the workspace's directory (src/workspaces/robot-directory.ts).
 */
export const ROBOTS_PAGE = 50;
/** The most a page of robots may show: each robot's counts are read for it. */
export const ROBOTS_PAGE_MAX = 200;

// ---- Workspaces, keys and the audit log (docs/workspaces.md) -------------------------------------

/** Audit entries a page of `GET /api/audit` shows unless `limit` says otherwise. */
export const AUDIT_PAGE = 50;
/** The most a page of the audit log may show: each entry is a read by `_id`. */
export const AUDIT_PAGE_MAX = 200;
/**
 * Entries one filtered page of the audit log (by actor, action or time) reads at most, each by `_id`:
 * a filter matching few entries answers a short page with a `nextCursor` to go on from, so a
 * request costs at most this many reads however long the log.
 */
export const AUDIT_FILTER_SCAN = 2000;
/**
 * Entries the dashboard's CSV export of the audit log holds at most (built in the browser from pages
 * of AUDIT_PAGE_MAX, 50 requests): a year of a busy workspace's filtered log, and a file a
 * spreadsheet opens; past it the file says it was cut short, and a narrower time filter exports the rest.
 */
export const AUDIT_EXPORT_MAX = 10_000;
/**
 * How seldom a key's `lastUsedAt` is written: at most once a minute per key and process, so a
 * script calling the API in a loop costs a read per request, not a write.
 */
export const KEY_LAST_USED_EVERY_MS = 60_000;
/**
 * How often a workspace's writes sweep its audit log (src/workspaces/audit.ts): every this-many-th
 * entry deletes what is past AUDIT_RETENTION, so the sweep costs each write a hundredth of one.
 */
export const AUDIT_SWEEP_EVERY = 100;
/** The most entries one sweep deletes: the write that sweeps never waits on a long one. */
export const AUDIT_SWEPT_AT_ONCE = 1000;
/**
 * How a write's audit entry is tried again when the database did not take it (src/contract/route.ts):
 * four tries over 0.7 s, within which a FerretDB busy moment or a primary's election passes. The
 * write has stood by then: its answer waits for these tries only, and an entry still not taken is
 * logged in full (docs/workspaces.md).
 */
export const AUDIT_RECORD_RETRY = { attempts: 4, firstDelayMs: 100 } as const;
/**
 * Entries of a workspace's robots directory applied past its snapshot before a process writes a
 * new one (src/workspaces/robot-directory.ts): a process that starts reads the snapshot (about
 * 1 MB at 10,000 robots) and at most about this many entries by `_id`.
 */
export const DIRECTORY_SNAPSHOT_EVERY = 500;
/** Entries of a chain (a directory's, src/storage/chains.ts) read at once: each is a read by `_id`. */
export const CHAIN_READS_AT_ONCE = 100;

// ---- The dashboard (docs/dashboard.md) ------------------------------------------------------------

/**
 * Fields a robot's Fields seen tree shows opened whole: past this many (a GitHub push carries about
 * 200) only the top level is shown, each object or list opened by a click, so the page is not a wall.
 */
export const FIELDS_TREE_OPEN_MAX = 20;

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

// ---- Secrets senders give in handshakes (src/robots/handshake-secrets.ts) -------------------------

/**
 * Secrets a robot's URL keeps waiting for an editor's confirmation (Asana's `X-Hook-Secret`,
 * Notion's verification token), newest kept: the real sender's handshake and a few a stranger
 * sent before it fit, and an editor picks the one its sender signs with (the deliveries log names
 * the pending secret an event was signed with). A stranger sending more only pushes out the oldest,
 * and is throttled with the URL's refusals (REJECTED_PER_MINUTE).
 */
export const PENDING_HANDSHAKE_SECRETS = 5;
/**
 * How seldom reading a robot's live webhook URL is recorded in the audit log per caller, robot and
 * process: the dashboard reads a robot's page again after every action, and one entry an hour
 * says who has seen the URL (docs/workspaces.md, rotate what a departing person has seen).
 */
export const URL_READ_RECORDED_EVERY_MS = 60 * 60_000;
