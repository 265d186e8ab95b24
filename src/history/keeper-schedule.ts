/**
 * When the history keeper looks at each robot (./keeper.ts says why these paces):
 * - every BUSY_TICK_MS while its deliveries are being taken or runs placed, or a record awaited;
 * - every IDLE_TICK_MS while its runs are going, and for QUIET_AFTER_MS after anything happened;
 * - then, quiet, every QUIET_TICK_MS, and within a second of a mark (./marks.ts).
 * The robots it knows are read every QUIET_TICK_MS, the marks every IDLE_TICK_MS.
 */
import type { Models } from '../storage/models';
import { MARK_EVERY_MS, takeMarks } from './marks';

export const BUSY_TICK_MS = 250;
/** A robot whose runs are going, or that had anything happen within QUIET_AFTER_MS, is looked at this often. */
export const IDLE_TICK_MS = 1000;
/**
 * How long after anything happened to a robot (a mark read, a delivery taken, a run ended, history
 * removed) it is looked at every second. At least MARK_EVERY_MS (./marks.ts), which lets a recorder
 * skip marks; a minute so that a robot sent to now and then stays watched between deliveries.
 */
export const QUIET_AFTER_MS = 60_000;
/**
 * A quiet robot is looked at this often: for a delivery whose mark was lost, a hole (./build.ts)
 * and retention, none of which need a quicker look. Also how often the list of robots is read.
 */
export const QUIET_TICK_MS = 60_000;

/** What one look at a robot found (./keeper-step.ts). */
export interface Look {
  /** When the look started: whether the robot is still awake is decided as of then. */
  startedAt: number;
  /** Deliveries taken and runs placed. */
  arriving: number;
  /** Records waited on within their patience. */
  awaited: number;
  /** Anything done, runs still open, or a hole waited on. */
  going: boolean;
}

export class KeeperSchedule {
  /** When each robot is looked at next. */
  private readonly due = new Map<string, number>();
  /** Until when each robot is looked at every second at least; past it the robot is quiet. */
  private readonly awakeUntil = new Map<string, number>();
  private readonly quiet = new Set<string>();
  private robotsReadAt = 0;
  private marksReadAt = 0;
  private readonly quietAfterMs: number;

  constructor(
    quietAfterMs: number,
    private readonly quietTickMs: number,
  ) {
    this.quietAfterMs = Math.max(MARK_EVERY_MS, quietAfterMs);
  }

  /** The robot is looked at now, and every second for QUIET_AFTER_MS. */
  wakeUp(robotId: string, now: number): void {
    this.due.set(robotId, 0);
    this.awakeUntil.set(robotId, now + this.quietAfterMs);
    this.quiet.delete(robotId);
  }

  /** Every robot looked at at once (the lease was just taken: another keeper may have moved them on). */
  wakeAll(now: number): void {
    for (const robotId of this.due.keys()) this.wakeUp(robotId, now);
    this.robotsReadAt = 0;
  }

  /** Robots not seen yet (the list is read every QUIET_TICK_MS), and those marked, woken up. */
  async findRobots(models: Models): Promise<void> {
    if (Date.now() - this.robotsReadAt >= this.quietTickMs) {
      const robots = await models.Robot.find({}, { _id: 1 }).lean();
      this.robotsReadAt = Date.now();
      for (const { _id } of robots) if (!this.due.has(_id)) this.wakeUp(_id, this.robotsReadAt);
    }
    if (Date.now() - this.marksReadAt >= IDLE_TICK_MS) {
      const marked = await takeMarks(models);
      // From after the marks are deleted: a recorder that found its mark still there skips marks
      // for MARK_EVERY_MS from then (./marks.ts).
      this.marksReadAt = Date.now();
      for (const robotId of marked) this.wakeUp(robotId, this.marksReadAt);
    }
  }

  /** The robots due now, each with whether this is a quiet robot's minutely look; and when the next is due. */
  dueNow(now = Date.now()): { robots: Array<{ robotId: string; quietLook: boolean }>; next: number } {
    let next = now + IDLE_TICK_MS; // marks are read every second
    const robots: Array<{ robotId: string; quietLook: boolean }> = [];
    for (const [robotId, at] of this.due) {
      if (at > now) next = Math.min(next, at);
      else robots.push({ robotId, quietLook: this.quiet.delete(robotId) });
    }
    return { robots, next };
  }

  /** Schedules the robot's next look after `look`; returns when it is. */
  after(robotId: string, look: Look): number {
    if (look.going) this.awakeUntil.set(robotId, Date.now() + this.quietAfterMs);
    // New deliveries come in bursts: look again soon. Runs ending are counted once a second.
    let wait = this.quietTickMs;
    if (look.arriving > 0 || look.awaited > 0) wait = BUSY_TICK_MS;
    else if (look.going || look.startedAt < (this.awakeUntil.get(robotId) ?? 0)) wait = IDLE_TICK_MS;
    else this.quiet.add(robotId);
    const at = Date.now() + wait;
    this.due.set(robotId, at);
    return at;
  }

  /** A look that failed: tried again in a second. */
  retry(robotId: string): number {
    const at = Date.now() + IDLE_TICK_MS;
    this.due.set(robotId, at);
    return at;
  }

  isQuiet(robotId: string): boolean {
    return this.quiet.has(robotId);
  }

  /** How many robots are looked at every second (`awake`) and every QUIET_TICK_MS (`quiet`). */
  counts(): { awake: number; quiet: number } {
    return { awake: this.due.size - this.quiet.size, quiet: this.quiet.size };
  }
}
