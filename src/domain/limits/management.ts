/**
 * The management API: its lists, bulk replay and pause, token rotation.
 */

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
