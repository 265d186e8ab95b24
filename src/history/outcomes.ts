/**
 * The third step of building a robot's history (build.ts has the first two): placed runs that
 * ended are counted and updated in their block. First those whose end this process heard (no
 * read, heard-outcomes.ts), then the oldest placed runs without an outcome, looked up by `_id`. A
 * run looked up before it ended is looked up again after a growing pause, so runs that take long
 * neither cost a read every step nor hold up later runs.
 */
import { runIdFor, runOfId } from '../domain/ids';
import { POLL_MAX, POLL_MIN, POLL_ROUNDS, POLL_SCAN } from '../domain/limits';
import type { RunOutcomeDoc } from '../storage/documents';
import type { Models } from '../storage/models';
import type { HeardOutcome, HeardOutcomes } from './heard-outcomes';
import type { LiveTally } from './live-tally';
import { byId } from '../storage/by-id';
import { removeIndex, type OpenDelivery, type RunSummary } from './tally';

/** The pause after a run is found unfinished: it doubles from the first to the last. */
const POLL_PAUSE_FIRST_MS = 250;
const POLL_PAUSE_MAX_MS = 4000;
/**
 * While this process hears a robot's runs end, how long a run may be among the oldest unfinished
 * before it is looked up (it may have ended in another worker process).
 */
const HEARD_GRACE_MS = 2000;

/**
 * Runs that ended: first those heard in this process (no read), then the oldest placed runs without
 * an outcome, looked up by `_id`. While this process hears the robot's runs end, a run is looked up
 * only once it has been among the oldest unfinished for HEARD_GRACE_MS without being heard: it may
 * have ended in another worker process.
 */
export async function pollOutcomes(models: Models, t: LiveTally, heard?: HeardOutcomes): Promise<number> {
  let finished = heard ? await takeHeard(t, heard) : 0;
  const grace = heard?.heardWithin(t.robotId, HEARD_GRACE_MS) ? HEARD_GRACE_MS : 0;
  for (let round = 0; round < POLL_ROUNDS; round++) {
    const now = Date.now();
    const candidates = dueRuns(t, now, grace);
    if (candidates.length === 0) break;
    const outcomes = await Promise.all(
      // Without its ending step, whose output may be large.
      candidates.map(([o, i]) =>
        byId<RunOutcomeDoc>(models.RunOutcome, runIdFor(o.deliveryId, i), { status: 1, finishedAt: 1 }),
      ),
    );
    let hits = 0;
    for (const [n, outcome] of outcomes.entries()) {
      const [o, i] = candidates[n];
      const ordinal = o.base + i;
      if (!outcome) {
        // While runs are heard ending here, one not heard is most likely still running: the longest pause.
        const doubled = (t.pauses.get(ordinal)?.pause ?? POLL_PAUSE_FIRST_MS / 2) * 2;
        const pause = grace > 0 ? POLL_PAUSE_MAX_MS : Math.min(POLL_PAUSE_MAX_MS, doubled);
        t.pauses.set(ordinal, { pause, until: now + pause });
        continue;
      }
      hits++;
      await recordOutcome(t, o, i, outcome);
    }
    finished += hits;
    closeFinished(t);
    // Runs mostly end in the order they were placed: widen the window while every run looked up had
    // ended (and look again at once), narrow it while fewer than half had.
    if (hits === candidates.length) t.window = Math.min(POLL_MAX, t.window * 2);
    else {
      if (hits * 2 < candidates.length) t.window = Math.max(POLL_MIN, Math.floor(t.window / 2));
      break;
    }
  }
  return finished;
}

/** Counts the robot's placed runs whose outcome this process heard; returns how many. */
async function takeHeard(t: LiveTally, heard: HeardOutcomes): Promise<number> {
  const open = new Map(t.state.open.map((o) => [o.deliveryId, o]));
  const ended: Array<[OpenDelivery, number, HeardOutcome]> = [];
  heard.offer(t.robotId, (runId, outcome) => {
    const { deliveryId, index } = runOfId(runId);
    const o = open.get(deliveryId);
    // Not placed yet: offered again next step. Already counted (a retried step): used up.
    if (!o || index >= o.placed) return false;
    ended.push([o, index, outcome]);
    return true;
  });
  let finished = 0;
  for (const [o, i, outcome] of ended) if (await recordOutcome(t, o, i, outcome)) finished++;
  closeFinished(t);
  return finished;
}

/** Marks a placed run finished in its block and counts it, once; false when it was counted before. */
async function recordOutcome(
  t: LiveTally,
  o: OpenDelivery,
  i: number,
  outcome: Pick<RunOutcomeDoc, 'status' | 'finishedAt'>,
): Promise<boolean> {
  if (!removeIndex(o.unfinished, i)) return false;
  const ordinal = o.base + i;
  t.pauses.delete(ordinal);
  const run = (await t.item<RunSummary>('runs', ordinal))!;
  await t.setItem('runs', ordinal, {
    ...run,
    status: outcome.status,
    finishedAt: new Date(outcome.finishedAt).toISOString(),
  });
  t.state[outcome.status]++;
  return true;
}

/** Deliveries whose runs are all placed and finished leave the open list. */
function closeFinished(t: LiveTally): void {
  t.state.open = t.state.open.filter((o) => o.placed < o.runCount || o.unfinished.length > 0);
}

/**
 * The oldest unfinished runs that are not in a pause, at most `t.window` of them. With a `grace`, a
 * run seen here for the first time starts with a pause of that length instead of being looked up.
 */
function dueRuns(t: LiveTally, now: number, grace: number): Array<[OpenDelivery, number]> {
  const due: Array<[OpenDelivery, number]> = [];
  let scanned = 0;
  for (const o of t.state.open) {
    for (const [from, to] of o.unfinished) {
      for (let i = from; i < to; i++) {
        if (due.length >= t.window || ++scanned > POLL_SCAN) return due;
        const ordinal = o.base + i;
        const paused = t.pauses.get(ordinal);
        if (!paused && grace > 0) t.pauses.set(ordinal, { pause: POLL_PAUSE_FIRST_MS, until: now + grace });
        else if ((paused?.until ?? 0) <= now) due.push([o, i]);
      }
    }
  }
  return due;
}
