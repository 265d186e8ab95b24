/**
 * What robots cost while nobody sends them anything (BENCH_IDLE_ROBOTS): on a stack of its own,
 * robots put to work (one JSON delivery each, so each has a history), their runs in the history,
 * then each process's CPU a second over BENCH_IDLE_WINDOW_S with nothing sent, at each count of
 * robots. The history keeper looks at every robot every IDLE_TICK_MS (src/history/keeper.ts), so
 * this grows with the robots (docs/operations.md, Known limits); the per-robot figure is each
 * count's CPU beyond the first count's, over the robots beyond it.
 */
import { waitFor } from '../../src/runtime/wait';
import { benchRobot, stackOfItsOwn } from '../context';
import type { Settings } from '../settings';
import { cpuMsPer, stackCpuSeconds, type StackRole } from '../stack';
import { log, round, sleep } from '../util';

export interface IdleRobotsLevel {
  robots: number;
  windowS: number;
  /** CPU milliseconds each second of the window, by process. */
  cpuMsPerSec: Record<StackRole, number>;
}

export async function idleRobots(s: Settings, cleanups: Array<() => Promise<void>>): Promise<IdleRobotsLevel[]> {
  log(`idle robots: a stack of its own, ${s.idleRobots.join(', ')} robots, ${s.idleWindowS} s each`);
  const { stack, clients, stop } = await stackOfItsOwn(s, cleanups);
  const { api } = clients;
  try {
    const robots: string[] = [];
    const levels: IdleRobotsLevel[] = [];
    for (const count of s.idleRobots) {
      while (robots.length < count) {
        const n = robots.length;
        const { robotId, url } = await benchRobot(api, stack.port, `idle ${n}`, 'json', { id: '{{trigger.id}}' });
        const res = await fetch(url, { method: 'POST', body: JSON.stringify({ id: `idle-${n}` }) });
        if (res.status !== 200) throw new Error(`an idle robot's delivery was answered ${res.status}`);
        robots.push(robotId);
      }
      // Idle from here: every robot's one run is in its history.
      await waitFor(
        async () => {
          const read = await Promise.all(
            robots.map((id) => api.json<{ runCounts?: { succeeded: number } }>('GET', `/api/robots/${id}`)),
          );
          return read.filter((r) => r.runCounts?.succeeded === 1).length;
        },
        (inHistory) => inHistory === robots.length,
        s.drainTimeoutS * 1000,
        { intervalMs: s.pollS * 1000 },
      );
      log(`idle robots: ${count} robots idle, measuring for ${s.idleWindowS} s`);
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
