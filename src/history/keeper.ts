/**
 * The history keeper builds every robot's history and counts (build.ts) and removes what is past
 * retention (retention.ts). It runs in each worker process; a lease makes one of them do the
 * work, and the others take over within LEASE_TTL_MS when it stops. Even two keepers at once
 * stay correct: each tally version is stored by insert, so only one of them writes each version,
 * and the other starts again from it.
 *
 * How often it looks at a robot (each look is a few reads by `_id`):
 * - every BUSY_TICK_MS while its deliveries are being taken or runs placed, or a claimed slot's
 *   record is awaited (for PENDING_PATIENCE_MS at most: build.ts);
 * - every second while its runs are going, and for QUIET_AFTER_MS after anything happened to it:
 *   new runs appear in the history within a second, and so do outcomes (those of runs that ended
 *   in this worker are heard, not read: ./heard-outcomes.ts);
 * - then, **quiet**, every QUIET_TICK_MS (slots claimed with no mark, holes, records past the
 *   patience, retention), and within a second of a mark: whatever records a delivery marks its
 *   robot (./marks.ts). So a robot nobody sends to costs a look a minute, not one a second: the
 *   keeper's work grows with the robots being sent to, not with the robots there are.
 */
import { randomUUID } from 'node:crypto';
import type { Gauge } from 'prom-client';
import type { Logger } from '../core/log';
import { isDuplicateKeyError, rawCollection } from '../storage/writes';
import { type Models } from '../storage/models';
import { awaitedRecords, placeRuns, takeSlots } from './build';
import { pollOutcomes } from './outcomes';
import type { LeaseDoc } from '../storage/history-documents';
import type { HeardOutcomes } from './heard-outcomes';
import { LiveTally } from './live-tally';
import { removeExpired } from './retention';
import { byId } from '../storage/by-id';
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
 * A quiet robot is looked at this often: for a delivery whose mark was lost, a hole (build.ts)
 * and retention, none of which need a quicker look. Also how often the list of robots is read.
 */
export const QUIET_TICK_MS = 60_000;
/** How long a keeper's lease lasts unless renewed; it is renewed every LEASE_RENEW_MS. */
export const LEASE_TTL_MS = 10_000;
const LEASE_RENEW_MS = 2000;
const LEASE_ID = 'history-keeper';

export interface KeeperOptions {
  models: Models;
  /** How long history is kept (HISTORY_RETENTION); 0 keeps it forever. */
  retentionMs: number;
  log: Logger;
  /** Outcomes of runs that ended in this process (its activities tell them). */
  heard?: HeardOutcomes;
  /** Robots looked at every second (`awake`) and every QUIET_TICK_MS (`quiet`); 0 while not the lease holder. */
  robotsGauge?: Gauge<'state'>;
  /** QUIET_AFTER_MS and QUIET_TICK_MS, for a test that must see a robot go quiet (never below MARK_EVERY_MS). */
  quietAfterMs?: number;
  quietTickMs?: number;
  /** PENDING_PATIENCE_MS (build.ts), for a test. */
  pendingPatienceMs?: number;
}

export interface HistoryKeeper {
  /** Whether the keeper (holding the lease) looks at the robot only every QUIET_TICK_MS or on a mark. */
  isQuiet(robotId: string): boolean;
  /** Stops after the step under way, and gives up the lease. */
  stop(): Promise<void>;
}

export function startHistoryKeeper(opts: KeeperOptions): HistoryKeeper {
  const { models, retentionMs, log, heard, robotsGauge } = opts;
  const quietAfterMs = Math.max(MARK_EVERY_MS, opts.quietAfterMs ?? QUIET_AFTER_MS);
  const quietTickMs = opts.quietTickMs ?? QUIET_TICK_MS;
  const patienceMs = opts.pendingPatienceMs;
  const holder = randomUUID();
  const tallies = new Map<string, LiveTally>();
  /** When each robot is looked at next. */
  const due = new Map<string, number>();
  /** Until when each robot is looked at every second at least; past it the robot is quiet. */
  const awakeUntil = new Map<string, number>();
  const quiet = new Set<string>();
  let leaseUntil = 0;
  let robotsReadAt = 0;
  let marksReadAt = 0;
  let stopped = false;
  let wake: () => void = () => undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function holdLease(): Promise<boolean> {
    const now = Date.now();
    if (leaseUntil - (LEASE_TTL_MS - LEASE_RENEW_MS) > now) return true;
    const leases = rawCollection<LeaseDoc>(models.Lease);
    const expiresAt = new Date(now + LEASE_TTL_MS);
    // Held and not expired: renewed in one write (still this keeper's only if the holder matches).
    if (leaseUntil > now && (await leases.updateOne({ _id: LEASE_ID, holder }, { $set: { expiresAt } })).matchedCount) {
      leaseUntil = now + LEASE_TTL_MS;
      return true;
    }
    try {
      await leases.insertOne({ _id: LEASE_ID, holder, expiresAt });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const lease = await byId<LeaseDoc>(models.Lease, LEASE_ID);
      if (lease?.holder === holder) {
        await leases.updateOne({ _id: LEASE_ID }, { $set: { expiresAt } });
      } else {
        // Another keeper holds it; once it has expired, the one whose delete removes it takes over.
        if (lease && lease.expiresAt.getTime() > now) return false;
        if (lease && (await leases.deleteOne({ _id: LEASE_ID, holder: lease.holder })).deletedCount !== 1) return false;
        return holdLease();
      }
    }
    if (leaseUntil <= now) {
      // Another keeper may have moved every tally on, and read marks this one never saw: every
      // robot is looked at at once, and every second until it goes quiet again.
      tallies.clear();
      for (const robotId of due.keys()) wakeUp(robotId, now);
      robotsReadAt = 0;
    }
    leaseUntil = now + LEASE_TTL_MS;
    return true;
  }

  /** The robot is looked at now, and every second for quietAfterMs. */
  function wakeUp(robotId: string, now: number): void {
    due.set(robotId, 0);
    awakeUntil.set(robotId, now + quietAfterMs);
    quiet.delete(robotId);
  }

  /** Robots the keeper had not seen (the list is read every QUIET_TICK_MS), and those marked. */
  async function findRobots(): Promise<void> {
    if (Date.now() - robotsReadAt >= quietTickMs) {
      const robots = await models.Robot.find({}, { _id: 1 }).lean();
      robotsReadAt = Date.now();
      for (const { _id } of robots) if (!due.has(_id)) wakeUp(_id, robotsReadAt);
    }
    if (Date.now() - marksReadAt >= IDLE_TICK_MS) {
      const marked = await takeMarks(models);
      // From after the marks are deleted: a recorder that found its mark still there skips marks
      // for MARK_EVERY_MS from then (./marks.ts).
      marksReadAt = Date.now();
      for (const robotId of marked) wakeUp(robotId, marksReadAt);
    }
  }

  /** One step for the robot (`quietLook`: a quiet robot's minutely look); returns how long until its next. */
  async function step(robotId: string, quietLook: boolean): Promise<number> {
    // Whether the robot is still watched is decided as of the step's start, before its reads: a
    // delivery claimed during them without a mark is then seen by the next look (./marks.ts).
    const startedAt = Date.now();
    let t = tallies.get(robotId);
    if (!t) {
      t = await LiveTally.load(models, robotId);
      tallies.set(robotId, t);
    }
    const before = JSON.stringify(t.state);
    const arriving = (await takeSlots(models, t, { quiet: quietLook, patienceMs })) + (await placeRuns(models, t));
    const work =
      arriving +
      (await pollOutcomes(models, t, heard)) +
      (retentionMs > 0 ? await removeExpired(models, t, retentionMs) : 0);
    const stateChanged = JSON.stringify(t.state) !== before;
    if ((stateChanged || t.changed) && !(await t.commit(stateChanged))) tallies.delete(robotId);
    t.trim();
    // A hole being waited on is the next slot's (one a slow claim filled may stay in `holes`); a
    // record waited on past the patience keeps nobody awake: it is read once a minute (build.ts).
    const st = t.state;
    const awaited = awaitedRecords(t, patienceMs);
    const going = work > 0 || st.open.length > 0 || awaited > 0 || t.holes.has(st.nextSlot);
    if (going) awakeUntil.set(robotId, Date.now() + quietAfterMs);
    // New deliveries come in bursts: look again soon. Runs ending are counted once a second.
    if (arriving > 0 || awaited > 0) return BUSY_TICK_MS;
    if (going || startedAt < (awakeUntil.get(robotId) ?? 0)) return IDLE_TICK_MS;
    quiet.add(robotId);
    return quietTickMs;
  }

  function countRobots(): void {
    const held = leaseUntil > Date.now();
    robotsGauge?.set({ state: 'awake' }, held ? due.size - quiet.size : 0);
    robotsGauge?.set({ state: 'quiet' }, held ? quiet.size : 0);
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      try {
        if (!(await holdLease())) {
          countRobots();
          await sleep(LEASE_RENEW_MS);
          continue;
        }
        await findRobots();
      } catch (err) {
        log.warn('history keeper: the store is not answering; trying again', { error: String(err) });
        await sleep(IDLE_TICK_MS);
        continue;
      }
      let next = Date.now() + IDLE_TICK_MS; // marks are read every second
      for (const [robotId, at] of due) {
        if (stopped) break;
        if (at > Date.now()) {
          next = Math.min(next, at);
          continue;
        }
        const quietLook = quiet.delete(robotId);
        try {
          due.set(robotId, Date.now() + (await step(robotId, quietLook)));
        } catch (err) {
          tallies.delete(robotId); // start again from what is stored
          due.set(robotId, Date.now() + IDLE_TICK_MS);
          log.warn('history keeper: a step failed; it is tried again', { robotId, error: String(err) });
        }
        next = Math.min(next, due.get(robotId)!);
      }
      countRobots();
      if (!stopped) await sleep(Math.max(10, next - Date.now()));
    }
  }

  const running = loop();
  return {
    isQuiet: (robotId) => leaseUntil > Date.now() && quiet.has(robotId),
    async stop() {
      stopped = true;
      wake();
      await running;
      if (leaseUntil > Date.now()) {
        await rawCollection<LeaseDoc>(models.Lease)
          .deleteOne({ _id: LEASE_ID, holder })
          .catch(() => undefined);
      }
    },
  };
}
