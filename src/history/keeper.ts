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
import type { Gauge } from 'prom-client';
import type { Logger } from '../core/log';
import { type Models } from '../storage/models';
import type { HeardOutcomes } from './heard-outcomes';
import { KeeperLease, LEASE_RENEW_MS } from './keeper-lease';
import { IDLE_TICK_MS, KeeperSchedule, QUIET_AFTER_MS, QUIET_TICK_MS } from './keeper-schedule';
import { lookAtRobot } from './keeper-step';
import type { LiveTally } from './live-tally';

interface KeeperOptions {
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

/**
 * The keeper's loop: hold the lease (./keeper-lease.ts), find the robots to look at
 * (./keeper-schedule.ts), look at each one due (./keeper-step.ts), sleep until the next is due.
 */
export function startHistoryKeeper(opts: KeeperOptions): HistoryKeeper {
  const { models, log, robotsGauge } = opts;
  const lease = new KeeperLease(models);
  const schedule = new KeeperSchedule(opts.quietAfterMs ?? QUIET_AFTER_MS, opts.quietTickMs ?? QUIET_TICK_MS);
  const step = { models, retentionMs: opts.retentionMs, heard: opts.heard, patienceMs: opts.pendingPatienceMs };
  const tallies = new Map<string, LiveTally>();
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

  function countRobots(): void {
    const held = lease.isHeld();
    const { awake, quiet } = schedule.counts();
    robotsGauge?.set({ state: 'awake' }, held ? awake : 0);
    robotsGauge?.set({ state: 'quiet' }, held ? quiet : 0);
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      try {
        const held = await lease.hold();
        if (!held.held) {
          countRobots();
          await sleep(LEASE_RENEW_MS);
          continue;
        }
        if (held.taken) {
          // Another keeper may have moved every tally on, and read marks this one never saw: every
          // robot is looked at at once, and every second until it goes quiet again.
          tallies.clear();
          schedule.wakeAll(Date.now());
        }
        await schedule.findRobots(models);
      } catch (err) {
        log.warn('history keeper: the store is not answering; trying again', { err });
        await sleep(IDLE_TICK_MS);
        continue;
      }
      const due = schedule.dueNow();
      let next = due.next;
      for (const { robotId, quietLook } of due.robots) {
        if (stopped) break;
        try {
          next = Math.min(next, schedule.after(robotId, await lookAtRobot(step, tallies, robotId, quietLook)));
        } catch (err) {
          tallies.delete(robotId); // start again from what is stored
          next = Math.min(next, schedule.retry(robotId));
          log.warn('history keeper: a step failed; it is tried again', { robotId, err });
        }
      }
      countRobots();
      if (!stopped) await sleep(Math.max(10, next - Date.now()));
    }
  }

  const running = loop();
  return {
    isQuiet: (robotId) => lease.isHeld() && schedule.isQuiet(robotId),
    async stop() {
      stopped = true;
      wake();
      await running;
      await lease.release();
    },
  };
}
