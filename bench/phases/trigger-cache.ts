/**
 * What the trigger cache's shared read is worth (issue 55 item 7): the ack latency at
 * BENCH_TRIGGER_CACHE connections (64) of two receivers of today's build on one stack of their own,
 * one as the service runs and one with TRIGGER_CACHE_COALESCE=0 (every lookup of an expired entry
 * reads the trigger itself, as before 2026-11-29), taking turns on the same robot's URL
 * (BENCH_TRIGGER_CACHE_ROUNDS rounds of BENCH_DURATION_S, the order alternating), worker paused.
 * Both keep entries for the stack's TRIGGER_CACHE_TTL_MS (5 s), so each turn meets expiries.
 *
 * One build, one setting apart: a comparison with an earlier commit would also carry every other
 * change to the receiver since. The store holds BENCH_TRIGGER_CACHE_ROBOTS other robots (stored as
 * the workspaces phase stores them): a trigger's read is a filter FerretDB evaluates over every
 * robot, so its price grows with the store, and the main stack holds 20,000 by its levels.
 */
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { RobotDoc } from '../../src/storage/documents';
import type { Models } from '../../src/storage/models';
import { rawCollection } from '../../src/storage/writes';
import { benchRobot, stackOfItsOwn } from '../context';
import { httpLoad, percentiles, type Percentiles } from '../load';
import { childRunning, cpuSecondsOf, msPer, stackCpuSeconds } from '../processes';
import type { Settings } from '../settings';
import { log, round } from '../util';
import { environmentOf, startReceiver } from './receiver-ab';

export interface TriggerCacheSide {
  acks: number;
  /** Acks/s of each of its loads, in order. */
  perSec: number[];
  latencyMs: Percentiles;
  /** CPU ms per ack of its receiver, and of FerretDB while it was loaded. */
  cpuMsPerAck: { receiver: number; ferretdb: number };
  non2xx: number;
}

export interface TriggerCacheResult {
  connections: number;
  rounds: number;
  robots: number;
  ttlMs: number;
  coalesced: TriggerCacheSide;
  uncoalesced: TriggerCacheSide;
  /** The coalesced receiver's ack p99 ÷ the other's: below 1, the shared read made the slowest acks faster. */
  p99Ratio: number;
}

type Side = 'coalesced' | 'uncoalesced';

const STORED_ROBOTS_WORKSPACE = 'bench-stored-robots';

/**
 * `count` robots, in draft and without an identifier, stored as the service stores them, in a workspace
 * of their own: a trigger's read scans them all the same, and the default workspace, where the bench's
 * robot is made, stays under MAX_ROBOTS_PER_WORKSPACE (10,000 stored there refused it).
 */
async function storeRobots(models: Models, count: number): Promise<void> {
  for (let from = 0; from < count; from += 1000) {
    const docs: RobotDoc[] = [];
    for (let i = from; i < Math.min(count, from + 1000); i++) {
      docs.push({
        _id: randomUUID(),
        workspaceId: STORED_ROBOTS_WORKSPACE,
        name: `Stored robot ${i}`,
        state: 'draft',
        trigger: { kind: 'custom', appId: null, connectionId: null, identifier: null },
        steps: [{ name: 's', type: 'compose', templateJson: '{"n":"{{trigger.n}}"}' }],
        stepsVersion: 0,
        rulesJson: null,
        heldSince: null,
        createdAt: new Date(),
      });
    }
    await rawCollection(models.Robot).insertMany(docs);
  }
}

export async function triggerCacheAb(s: Settings, cleanups: Array<() => Promise<void>>): Promise<TriggerCacheResult> {
  const connections = s.triggerCacheConnections;
  const own = await stackOfItsOwn(s, cleanups);
  const stops: Array<() => Promise<void>> = [];
  try {
    const { stack, clients } = own;
    log(`trigger cache: storing ${s.triggerCacheRobots} robots`);
    await storeRobots(clients.models, s.triggerCacheRobots);
    const { url } = await benchRobot(clients.api, stack.origin, 'bench trigger cache', 'json', {
      id: '{{trigger.id}}',
    });
    const pidOf = (script: string) => {
      const pid = childRunning(stack.pid, script);
      if (pid === null) throw new Error(`the stack runs no ${script}`);
      return pid;
    };
    const env = environmentOf(pidOf('entry/receiver.js'));
    const today = path.resolve(__dirname, '../../..');
    const receivers = {} as Record<Side, { port: number; pid: number }>;
    for (const side of ['coalesced', 'uncoalesced'] as const) {
      const r = await startReceiver(today, { ...env, TRIGGER_CACHE_COALESCE: side === 'coalesced' ? '1' : '0' });
      stops.push(r.stop);
      receivers[side] = r;
    }
    const worker = pidOf('entry/worker.js');
    process.kill(worker, 'SIGSTOP');
    stops.push(() => Promise.resolve(void process.kill(worker, 'SIGCONT')));
    const loads: Record<Side, Array<{ perSec: number; latencies: number[]; non2xx: number }>> = {
      coalesced: [],
      uncoalesced: [],
    };
    const cpu: Record<Side, { receiver: number; ferretdb: number }> = {
      coalesced: { receiver: 0, ferretdb: 0 },
      uncoalesced: { receiver: 0, ferretdb: 0 },
    };
    for (let r = 0; r < s.triggerCacheRounds; r++) {
      for (const side of r % 2 ? (['uncoalesced', 'coalesced'] as const) : (['coalesced', 'uncoalesced'] as const)) {
        log(`trigger cache: ${connections} connections, round ${r + 1} of ${s.triggerCacheRounds}, ${side}`);
        const { port, pid } = receivers[side];
        const before = { receiver: cpuSecondsOf(pid), ferretdb: stackCpuSeconds(stack.pid).ferretdb };
        const to = new URL(url);
        to.port = String(port);
        const load = await httpLoad(to.toString(), connections, s.durationS, `cache-${side}-${r}`);
        cpu[side].receiver += cpuSecondsOf(pid) - before.receiver;
        cpu[side].ferretdb += stackCpuSeconds(stack.pid).ferretdb - before.ferretdb;
        loads[side].push({ perSec: load.summary.perSec, latencies: load.latencies, non2xx: load.summary.non2xx });
      }
    }
    const sideOf = (side: Side): TriggerCacheSide => {
      const latencies = loads[side].flatMap((l) => l.latencies);
      return {
        acks: latencies.length,
        perSec: loads[side].map((l) => l.perSec),
        latencyMs: percentiles(latencies),
        cpuMsPerAck: {
          receiver: msPer(cpu[side].receiver, latencies.length, 3),
          ferretdb: msPer(cpu[side].ferretdb, latencies.length, 3),
        },
        non2xx: loads[side].reduce((n, l) => n + l.non2xx, 0),
      };
    };
    const coalesced = sideOf('coalesced');
    const uncoalesced = sideOf('uncoalesced');
    return {
      connections,
      rounds: s.triggerCacheRounds,
      robots: s.triggerCacheRobots,
      ttlMs: Number(env.TRIGGER_CACHE_TTL_MS ?? 5000),
      coalesced,
      uncoalesced,
      p99Ratio: round(coalesced.latencyMs.p99 / Math.max(0.01, uncoalesced.latencyMs.p99), 3),
    };
  } finally {
    for (const stop of stops.reverse()) await stop();
    await own.stop();
  }
}
