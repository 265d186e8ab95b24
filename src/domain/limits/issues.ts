/**
 * Issues (src/domain/issues.ts, docs/issues.md): how often failures are written, how long a reason
 * may be, and what a process holds in memory while the store does not answer.
 */

/**
 * How often a process writes the failures it counted (src/issues/counter.ts): one write per issue
 * per flush however many failures came, so a flood of refusals costs a write a second, not one
 * each; a process killed loses at most this much of its counts (the deliveries are recorded anyway).
 */
export const ISSUE_FLUSH_MS = 1000;
/**
 * Issues a process holds counts for between flushes at most. Issues are robots × reasons, so far
 * fewer; while the store does not answer, counts are kept and added to, and only the hits of an
 * issue not yet held past this many are dropped (logged): the memory is bounded whatever comes.
 */
export const ISSUE_PENDING_MAX = 10_000;
/** The longest reason kept: a run's `step:<name>` carries a step's name, which people type. */
export const ISSUE_REASON_CHARS = 200;
/** Issues a page of `GET /api/issues` shows unless `limit` says otherwise. */
export const ISSUES_PAGE = 50;
/** The most a page may show (the whole list of a workspace is read for any page: docs/issues.md). */
export const ISSUES_PAGE_MAX = 200;
/**
 * How long `webhooks_issues_open` is reused before the issues are read again at a scrape (one read
 * of the collection): a scrape every few seconds, or many at once, costs one read.
 */
export const ISSUES_GAUGE_MS = 5000;
