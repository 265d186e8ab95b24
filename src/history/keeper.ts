/**
 * The history keeper builds every robot's history and counts (build.ts) and removes what is past
 * retention (retention.ts). It runs in each worker process; a lease makes one of them do the
 * work, and the others take over within LEASE_TTL_MS when it stops. Even two keepers at once
 * stay correct: each tally version is stored by insert, so only one of them writes each version,
 * and the other starts again from it.
 *
 * A robot whose deliveries are being taken or runs placed is looked at every BUSY_TICK_MS, any
 * other every IDLE_TICK_MS: new runs appear in the history within a second, and so do outcomes
 * (those of runs that ended in this worker are heard, not read: ./heard-outcomes.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../log';
import { isDuplicateKeyError, rawCollection } from '../storage/writes';
import { type Models } from '../storage/models';
import { placeRuns, takeSlots } from './build';
import { pollOutcomes } from './outcomes';
import type { LeaseDoc } from '../storage/history-documents';
import type { HeardOutcomes } from './heard-outcomes';
import { LiveTally } from './live-tally';
import { removeExpired } from './retention';
import { byId } from '../storage/by-id';

export const BUSY_TICK_MS = 250;
/** A robot whose runs are going (and nothing new arriving) is looked at this often. */
export const RUNNING_TICK_MS = 1000;
export const IDLE_TICK_MS = 1000;
/** How long a keeper's lease lasts unless renewed; it is renewed every LEASE_RENEW_MS. */
export const LEASE_TTL_MS = 10_000;
const LEASE_RENEW_MS = 2000;
/** How often the list of robots is read again. */
const ROBOTS_REFRESH_MS = 5000;
const LEASE_ID = 'history-keeper';

export interface KeeperOptions {
  models: Models;
  /** How long history is kept (HISTORY_RETENTION); 0 keeps it forever. */
  retentionMs: number;
  log: Logger;
  /** Outcomes of runs that ended in this process (its activities tell them). */
  heard?: HeardOutcomes;
}

export interface HistoryKeeper {
  /** Stops after the step under way, and gives up the lease. */
  stop(): Promise<void>;
}

export function startHistoryKeeper({ models, retentionMs, log, heard }: KeeperOptions): HistoryKeeper {
  const holder = randomUUID();
  const tallies = new Map<string, LiveTally>();
  const due = new Map<string, number>();
  let leaseUntil = 0;
  let robotsReadAt = 0;
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
    if (leaseUntil <= now) tallies.clear(); // another keeper may have moved every tally on
    leaseUntil = now + LEASE_TTL_MS;
    return true;
  }

  /** One step for the robot; returns how long until its next. */
  async function step(robotId: string): Promise<number> {
    let t = tallies.get(robotId);
    if (!t) {
      t = await LiveTally.load(models, robotId);
      tallies.set(robotId, t);
    }
    const before = JSON.stringify(t.state);
    const arriving = (await takeSlots(models, t)) + (await placeRuns(models, t));
    const work =
      arriving +
      (await pollOutcomes(models, t, heard)) +
      (retentionMs > 0 ? await removeExpired(models, t, retentionMs) : 0);
    const stateChanged = JSON.stringify(t.state) !== before;
    if ((stateChanged || t.changed) && !(await t.commit(stateChanged))) tallies.delete(robotId);
    t.trim();
    // New deliveries come in bursts: look again soon. Runs ending are counted once a second.
    if (arriving > 0 || t.state.pendingSlots.length > 0) return BUSY_TICK_MS;
    return work > 0 || t.state.open.length > 0 ? RUNNING_TICK_MS : IDLE_TICK_MS;
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      try {
        if (!(await holdLease())) {
          await sleep(LEASE_RENEW_MS);
          continue;
        }
        if (Date.now() - robotsReadAt > ROBOTS_REFRESH_MS) {
          const robots = await models.Robot.find({}, { _id: 1 }).lean();
          for (const { _id } of robots) if (!due.has(_id)) due.set(_id, 0);
          robotsReadAt = Date.now();
        }
      } catch (err) {
        log.warn('history keeper: the store is not answering; trying again', { error: String(err) });
        await sleep(IDLE_TICK_MS);
        continue;
      }
      for (const [robotId, at] of due) {
        if (stopped || at > Date.now()) continue;
        try {
          due.set(robotId, Date.now() + (await step(robotId)));
        } catch (err) {
          tallies.delete(robotId); // start again from what is stored
          due.set(robotId, Date.now() + IDLE_TICK_MS);
          log.warn('history keeper: a step failed; it is tried again', { robotId, error: String(err) });
        }
      }
      const next = Math.min(...due.values(), Date.now() + IDLE_TICK_MS);
      if (!stopped) await sleep(Math.max(10, next - Date.now()));
    }
  }

  const running = loop();
  return {
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
