/**
 * One look of the history keeper at one robot: take its claimed slots and place its runs
 * (./build.ts), count the outcomes of its open runs (./outcomes.ts), remove what is past retention
 * (./retention.ts), then store its tally if it moved (./live-tally.ts). Reads are by `_id`.
 */
import type { Models } from '../storage/models';
import { awaitedRecords, placeRuns, takeSlots } from './build';
import type { HeardOutcomes } from './heard-outcomes';
import type { Look } from './keeper-schedule';
import { LiveTally } from './live-tally';
import { pollOutcomes } from './outcomes';
import { removeExpired } from './retention';

interface StepOptions {
  models: Models;
  /** How long history is kept; 0 keeps it forever. */
  retentionMs: number;
  heard?: HeardOutcomes;
  /** PENDING_PATIENCE_MS (./build.ts), for a test. */
  patienceMs?: number;
}

/**
 * Looks at the robot (`quietLook`: a quiet robot's minutely look) with its tally of `tallies`,
 * loaded when missing and dropped when another keeper stored a newer one (the next look reloads).
 */
export async function lookAtRobot(
  o: StepOptions,
  tallies: Map<string, LiveTally>,
  robotId: string,
  quietLook: boolean,
): Promise<Look> {
  const { models, patienceMs } = o;
  // Whether the robot is still watched is decided as of the step's start, before its reads: a
  // delivery claimed during them without a mark is then seen by the next look (./marks.ts).
  const startedAt = Date.now();
  let t = tallies.get(robotId);
  if (!t) {
    t = await LiveTally.load(models, robotId);
    tallies.set(robotId, t);
  }
  const before = JSON.stringify(t.state);
  const taking = { quiet: quietLook, patienceMs, heard: o.heard?.records };
  const arriving = (await takeSlots(models, t, taking)) + (await placeRuns(models, t));
  const work =
    arriving +
    (await pollOutcomes(models, t, o.heard)) +
    (o.retentionMs > 0 ? await removeExpired(models, t, o.retentionMs) : 0);
  const stateChanged = JSON.stringify(t.state) !== before;
  if ((stateChanged || t.changed) && !(await t.commit(stateChanged))) tallies.delete(robotId);
  t.trim();
  // A hole being waited on is the next slot's (one a slow claim filled may stay in `holes`); a
  // record waited on past the patience keeps nobody awake: it is read once a minute (./build.ts).
  const st = t.state;
  const awaited = awaitedRecords(t, patienceMs);
  return {
    startedAt,
    arriving,
    awaited,
    going: work > 0 || st.open.length > 0 || awaited > 0 || t.holes.has(st.nextSlot),
  };
}
