/**
 * What a worker and a receiver keep in memory, and how much the embedded Go servers may hold.
 */

// ---- Worker memory --------------------------------------------------------------------------------

/** Robots whose settings a worker keeps (src/robots/settings.ts); the oldest goes first. */
export const ROBOTS_KEPT = 1000;

// ---- Embedded servers' memory -------------------------------------------------------------------

/**
 * The garbage collector's target (Go's GOGC) for the embedded Temporal dev server and FerretDB:
 * each collects once its heap has grown by this percent over what the last collection kept, not
 * Go's 100. At 100 the dev server spent about a tenth of its CPU marking and sweeping under load
 * (perf, docs/benchmark-history.md, issue 57); at 400, a one-run delivery costs the dev server 1.9 / 4.0
 * ms and FerretDB 1.4 / 1.0 ms less CPU at 16 / 64 senders, for some 450 MB more of the dev server's
 * memory under load (550 MB to 1 GB at 16). An operator's own GOGC (or GOMEMLIMIT) in the environment wins.
 */
export const EMBEDDED_GO_GC_PERCENT = 400;

/**
 * How the embedded Go servers hand freed heap back to the kernel (Go's GODEBUG `madvdontneed=0`):
 * lazily (MADV_FREE: the kernel takes the pages back when it needs them), not at once (MADV_DONTNEED,
 * Go's default on Linux), after which every reuse faults in a page the kernel zeroes first. With
 * EMBEDDED_GO_GC_PERCENT the heap swings widely, and zeroing pages was a tenth of the dev server's CPU
 * under load (perf, docs/benchmark-history.md, issue 57); lazily, a one-run delivery costs the dev
 * server 1.6–2.0 ms less at 16 senders. Their RSS counts the freed pages until the kernel takes them.
 * An operator's own GODEBUG in the environment wins.
 */
export const EMBEDDED_GO_DEBUG = 'madvdontneed=0';

// ---- Management API memory ---------------------------------------------------------------------

/**
 * Workspaces whose robots directory a process keeps (src/workspaces/robot-directory.ts), the least
 * recently read going first: about 150 bytes a robot, so 100 workspaces of 10,000 robots are 150 MB
 * at most; one read again starts from its snapshot.
 */
export const DIRECTORIES_KEPT = 100;
/** Large trigger data a worker keeps for a run's next steps (src/runs/steps.ts); the oldest goes first. */
export const STORED_TRIGGERS_KEPT = 16;
/**
 * Outcomes of runs ended in a worker that its history keeper has not counted yet (src/history/
 * heard-outcomes.ts): a hint that saves a read per run; past it the oldest are read back instead.
 */
export const HEARD_OUTCOMES_KEPT = 50_000;
/**
 * Delivery records a worker stored that its history keeper has not taken yet (src/history/
 * heard-records.ts): a hint that saves two reads per delivery; past it the oldest are read back.
 * A record is about 1 KiB (its previews and fields seen), so 10 MiB at most.
 */
export const HEARD_RECORDS_KEPT = 10_000;

// ---- Receiver memory ------------------------------------------------------------------------------

/** Triggers a receiver keeps in memory; the oldest goes first. */
export const TRIGGER_CACHE_ENTRIES = 10_000;
/** Notes of unconfirmed bodies looked at per sweep. */
export const SWEEP_BATCH = 100;
/** Workflows whose expected failure was logged and whose SDK "Workflow failed" line is still to come. */
export const EXPECTED_FAILURES_REMEMBERED = 1000;
/**
 * Busy URLs a receiver remembers for fair dispatch's weights (src/deliveries/fair-shares.ts), over
 * every workspace: about 100 bytes each; past it the workspace given a delivery least recently is
 * forgotten (its next delivery weighs 1 again).
 */
export const FAIR_SHARE_URLS_KEPT = 100_000;
