/**
 * Today's receiver against another commit's (BENCH_RECEIVER_AB: a commit), the ack path only.
 * Levels measured minutes apart differ by more than a change to the receiver costs, so both run
 * at once on one stack of their own, its worker paused (SIGSTOP): each in a process of its own,
 * with the environment the stack's own receiver was given, on the same robot's URL. At each level
 * they take turns with loads of BENCH_DURATION_S (BENCH_RECEIVER_AB_ROUNDS rounds, the order
 * alternating). A receiver's CPU per ack is all its CPU over all its acks at that level.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnManaged, waitForPort } from '../../src/launch/os/managed-process';
import { freePorts } from '../../src/launch/os/ports';
import { buildCommit } from '../build-commit';
import { benchRobot, clientsOf } from '../context';
import { httpLoad } from '../load';
import type { Settings } from '../settings';
import { childRunning, cpuSecondsOf } from '../processes';
import { launchStack } from '../stack';
import { log, round } from '../util';

export interface ReceiverAbSide {
  /** Acks/s of each of its loads, in order. */
  perSec: number[];
  acks: number;
  cpuMsPerAck: number;
}

export interface ReceiverAbLevel {
  connections: number;
  today: ReceiverAbSide;
  other: ReceiverAbSide;
  /** Today's CPU per ack ÷ the other commit's. */
  cpuRatio: number;
}

export interface ReceiverAbResult {
  commit: string;
  rounds: number;
  levels: ReceiverAbLevel[];
}

type Side = 'today' | 'other';

/** The environment a process was started with. */
export function environmentOf(pid: number): NodeJS.ProcessEnv {
  const entries = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(entries.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
}

/** A receiver of the build in `root` with `env`, on ports of its own; resolves once it listens. */
export async function startReceiver(root: string, env: NodeJS.ProcessEnv) {
  const [port, metricsPort] = await freePorts(2);
  const receiver = spawnManaged('receiver', process.execPath, [path.join(root, 'dist/src/entry/receiver.js')], {
    env: { ...env, PORT: String(port), RECEIVER_METRICS_PORT: String(metricsPort) },
    stopSignal: 'SIGINT',
  });
  await waitForPort(port, receiver, 60_000).catch(async (err: unknown) => {
    await receiver.stop();
    throw err;
  });
  return { port, pid: receiver.child.pid ?? -1, stop: () => receiver.stop() };
}

export async function receiverAb(s: Settings, cleanups: Array<() => Promise<void>>): Promise<ReceiverAbResult> {
  const roots: Record<Side, string> = { today: path.resolve(__dirname, '../../..'), other: buildCommit(s.receiverAb) };
  const stack = await launchStack({ logLevel: s.logLevel, startTimeoutS: 180 });
  // Stopped last first, once (from the `finally` below, or by the bench on an interruption).
  const stops: Array<() => Promise<void>> = [() => stack.stop(s.keepData)];
  let stopped: Promise<void> | undefined;
  const stopAll = () =>
    (stopped ??= (async () => {
      for (const stop of stops.reverse()) await stop();
      cleanups.splice(cleanups.indexOf(stopAll), 1);
    })());
  cleanups.push(stopAll);
  try {
    await stack.ready;
    const clients = await clientsOf(stack, s);
    stops.push(() => clients.close());
    const { url } = await benchRobot(clients.api, stack.origin, 'bench receivers', 'json', { id: '{{trigger.id}}' });
    const pidOf = (script: string) => {
      const pid = childRunning(stack.pid, script);
      if (pid === null) throw new Error(`the stack runs no ${script}`);
      return pid;
    };
    const env = environmentOf(pidOf('entry/receiver.js'));
    const receivers = {} as Record<Side, { port: number; pid: number }>;
    for (const side of ['today', 'other'] as const) {
      const r = await startReceiver(roots[side], env);
      stops.push(r.stop);
      receivers[side] = r;
    }
    const worker = pidOf('entry/worker.js');
    process.kill(worker, 'SIGSTOP');
    stops.push(() => Promise.resolve(void process.kill(worker, 'SIGCONT')));
    const levels: ReceiverAbLevel[] = [];
    for (const connections of s.levels) {
      const loads: Record<Side, Array<{ perSec: number; acks: number; cpuS: number }>> = { today: [], other: [] };
      for (let r = 0; r < s.receiverAbRounds; r++) {
        for (const side of r % 2 ? (['other', 'today'] as const) : (['today', 'other'] as const)) {
          log(`receivers: ${connections} connections, round ${r + 1} of ${s.receiverAbRounds}, ${side}`);
          const { port, pid } = receivers[side];
          const cpu = cpuSecondsOf(pid);
          const to = new URL(url);
          to.port = String(port);
          const load = await httpLoad(to.toString(), connections, s.durationS, `ab-${side}-${connections}-${r}`);
          loads[side].push({ perSec: load.summary.perSec, acks: load.acks.size, cpuS: cpuSecondsOf(pid) - cpu });
        }
      }
      const sideOf = (side: Side): ReceiverAbSide => {
        const acks = loads[side].reduce((n, l) => n + l.acks, 0);
        const cpuS = loads[side].reduce((n, l) => n + l.cpuS, 0);
        return { perSec: loads[side].map((l) => l.perSec), acks, cpuMsPerAck: round((cpuS * 1000) / acks, 3) };
      };
      const today = sideOf('today');
      const other = sideOf('other');
      levels.push({ connections, today, other, cpuRatio: round(today.cpuMsPerAck / other.cpuMsPerAck, 3) });
    }
    return { commit: s.receiverAb, rounds: s.receiverAbRounds, levels };
  } finally {
    await stopAll();
  }
}
