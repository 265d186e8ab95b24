/**
 * What robots cost while nobody sends them anything (BENCH_IDLE_ROBOTS): on a stack of its own,
 * robots put to work (one JSON delivery each, so each has a history), their runs in the history,
 * then, once the history keeper lets every robot be (its `webhooks_history_keeper_robots{state="awake"}`
 * gauge reads 0: src/history/keeper.ts, QUIET_AFTER_MS), each process's CPU a second over
 * BENCH_IDLE_WINDOW_S with nothing sent, at each count of robots. The per-robot figure is each
 * count's CPU beyond the first count's, over the robots beyond it.
 *
 * With BENCH_IDLE_BASELINE_COMMIT, the same on that commit's build, after today's: a build without
 * the gauge (whose keeper looked at every robot every second) is measured once its runs are in.
 */
import path from 'node:path';
import { waitFor } from '../../src/launch/os/wait';
import { buildCommit } from '../build-commit';
import { benchRobot, stackOfItsOwn } from '../context';
import type { Settings } from '../settings';
import { cpuMsPer, stackCpuSeconds, type StackRole } from '../processes';
import type { BenchStack } from '../stack';
import { log, round, sleep } from '../util';

export interface IdleRobotsLevel {
  robots: number;
  windowS: number;
  /** CPU milliseconds each second of the window, by process. */
  cpuMsPerSec: Record<StackRole, number>;
}

export interface IdleRobotsResult {
  levels: IdleRobotsLevel[];
  /** The same on BENCH_IDLE_BASELINE_COMMIT's build, measured after. */
  baseline: { commit: string; levels: IdleRobotsLevel[] } | null;
}

export async function idleRobots(s: Settings, cleanups: Array<() => Promise<void>>): Promise<IdleRobotsResult> {
  const levels = await idleRobotsOn(s, cleanups, 'today');
  const commit = s.idleBaselineCommit;
  const launcher = commit ? path.join(buildCommit(commit), 'dist/src/entry/embedded.js') : undefined;
  return { levels, baseline: commit ? { commit, levels: await idleRobotsOn(s, cleanups, commit, launcher) } : null };
}

/**
 * Robots the worker's keeper still looks at every second, from its metrics; null for a build
 * without the gauge, undefined while the worker's metrics port does not answer or its keeper has
 * not counted yet.
 */
async function awakeRobots(stack: BenchStack): Promise<number | null | undefined> {
  const res = await fetch(stack.workerMetricsUrl).catch(() => undefined);
  if (!res?.ok) return undefined;
  const text = await res.text();
  // Named history_keeper_robots before issue 55 (a baseline build may be older).
  if (!/^# TYPE (webhooks_)?history_keeper_robots gauge$/m.test(text)) return null;
  const line = /^(?:webhooks_)?history_keeper_robots\{state="awake"\} (\d+)/m.exec(text);
  return line ? Number(line[1]) : undefined; // not counted yet
}

async function idleRobotsOn(
  s: Settings,
  cleanups: Array<() => Promise<void>>,
  build: string,
  launcher?: string,
): Promise<IdleRobotsLevel[]> {
  log(`idle robots (${build}): a stack of its own, ${s.idleRobots.join(', ')} robots, ${s.idleWindowS} s each`);
  const { stack, clients, stop } = await stackOfItsOwn(s, cleanups, {}, launcher);
  const { api } = clients;
  try {
    const robots: string[] = [];
    const levels: IdleRobotsLevel[] = [];
    for (const count of s.idleRobots) {
      while (robots.length < count) {
        const n = robots.length;
        const { robotId, url } = await benchRobot(api, stack.origin, `idle ${n}`, 'json', { id: '{{trigger.id}}' });
        const res = await fetch(url, { method: 'POST', body: JSON.stringify({ id: `idle-${n}` }) });
        if (res.status !== 200) throw new Error(`an idle robot's delivery was answered ${res.status}`);
        robots.push(robotId);
      }
      // Idle from here: every robot's one run is in its history.
      await waitFor(
        async () => {
          const read = await Promise.all(robots.map((id) => api.call('getRobot', { params: { id } })));
          return read.filter((r) => r.runCounts?.succeeded === 1).length;
        },
        (inHistory) => inHistory === robots.length,
        s.drainTimeoutS * 1000,
        { intervalMs: s.pollS * 1000 },
      );
      const awake = await waitFor(
        () => awakeRobots(stack),
        (n) => n === null || n === 0,
        s.drainTimeoutS * 1000,
        { intervalMs: 1000 },
      );
      log(`idle robots (${build}): ${count} robots idle${awake === null ? '' : ' and quiet'}, ${s.idleWindowS} s`);
      const before = stackCpuSeconds(stack.pid);
      const startedAt = performance.now();
      await sleep(s.idleWindowS * 1000); // the measurement itself: a window in which nothing is sent
      const seconds = (performance.now() - startedAt) / 1000;
      levels.push({
        robots: count,
        windowS: round(seconds, 1),
        cpuMsPerSec: cpuMsPer(before, stackCpuSeconds(stack.pid), seconds),
      });
    }
    return levels;
  } finally {
    await stop();
  }
}
