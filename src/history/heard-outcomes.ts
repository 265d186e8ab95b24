/**
 * Outcomes heard in this process: a run that ends in this worker tells this worker's history
 * keeper, once its outcome is stored, so the keeper counts it without reading it back. Runs that
 * end in another worker process are still found by the keeper's reads (build.ts, pollOutcomes).
 *
 * A hint, never the record: what is heard was stored first, and a keeper that restarts (or takes
 * the lease from another process) reads whatever it has not heard. Bounded: past
 * HEARD_OUTCOMES_KEPT the outcomes of the robot heard from longest ago are forgotten, and read back
 * like any other.
 */
import { HEARD_OUTCOMES_KEPT } from '../domain/limits';
import type { RunOutcomeStatus } from '../domain/types';
import { HeardRecords } from './heard-records';

/** How long an outcome heard for a run not yet placed is kept for the keeper (it is read back after). */
export const HEARD_OUTCOME_MS = 60_000;

export interface HeardOutcome {
  status: RunOutcomeStatus;
  finishedAt: Date;
}

export class HeardOutcomes {
  /** The delivery records this process stored, heard the same way (./heard-records.ts). */
  readonly records = new HeardRecords();
  /** By robot, then by run id, in the order heard. */
  private readonly byRobot = new Map<string, Map<string, HeardOutcome>>();
  private count = 0;
  /** When an outcome was last heard for each robot. */
  private readonly lastHeard = new Map<string, number>();

  /** A run's outcome was stored by this process. */
  heard(robotId: string, runId: string, outcome: HeardOutcome): void {
    let runs = this.byRobot.get(robotId);
    if (!runs) this.byRobot.set(robotId, (runs = new Map<string, HeardOutcome>()));
    if (!runs.has(runId)) this.count++;
    runs.set(runId, outcome);
    this.lastHeard.set(robotId, Date.now());
    if (this.count > HEARD_OUTCOMES_KEPT) this.forgetOldest();
  }

  /**
   * Offers each outcome heard for the robot's runs to `use`; those it uses, and those heard longer
   * than HEARD_OUTCOME_MS ago (their delivery was never taken here), are forgotten. The others (runs
   * not placed yet) are offered again at the next step.
   */
  offer(robotId: string, use: (runId: string, outcome: HeardOutcome) => boolean): void {
    const runs = this.byRobot.get(robotId);
    if (!runs) return;
    const stale = Date.now() - HEARD_OUTCOME_MS;
    for (const [runId, outcome] of runs) {
      if (use(runId, outcome) || outcome.finishedAt.getTime() < stale) {
        runs.delete(runId);
        this.count--;
      }
    }
    if (runs.size === 0) this.byRobot.delete(robotId);
  }

  /** Whether runs of the robot ended in this process within the last `ms`. */
  heardWithin(robotId: string, ms: number): boolean {
    return Date.now() - (this.lastHeard.get(robotId) ?? 0) < ms;
  }

  private forgetOldest(): void {
    // The robot heard from longest ago loses its outcomes first; they are read back instead.
    const [robotId] = [...this.lastHeard.entries()].reduce((a, b) => (b[1] < a[1] ? b : a));
    this.count -= this.byRobot.get(robotId)?.size ?? 0;
    this.byRobot.delete(robotId);
    this.lastHeard.delete(robotId);
  }
}
