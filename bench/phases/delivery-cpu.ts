/**
 * What a one-run delivery costs the machine (issue 57), end to end and drained, at each of
 * BENCH_DELIVERY_CPU_LEVELS senders: BENCH_DELIVERY_CPU json deliveries that each make one run (a
 * compose step; ./json-deliveries.ts) on a stack of today's code, taking turns (BENCH_LEVEL_ROUNDS
 * rounds, the order alternating) with a stack of BENCH_BASELINE_COMMIT when one is set, both side by
 * side and idle but for the turn measured. For each side: deliveries a second from the first send
 * to the last run's outcome, and every process's CPU milliseconds per delivery, summed over the
 * stack (the bench's senders not counted). Beside them, on today's stack, the engine's floor for a
 * delivery: as many do-nothing delivery workflows (start, one local activity, complete;
 * ./delivery-floor.ts) started by 16 clients and run by the bench's own worker: the Temporal
 * server's CPU per workflow, and the bench process's (its clients and its worker) apart.
 *
 * Two cores give 2,000 ms of CPU a second: CPU per delivery is what caps deliveries a second once
 * there are enough senders to keep both busy, so a change is judged on both figures at 16 and 64.
 */
import path from 'node:path';
import { buildCommit } from '../build-commit';
import { withBenchWorker } from '../bench-worker';
import type { StackOfItsOwn } from '../context';
import { benchNothing } from '../floor-activities';
import { cpuMsPer, msPer, stackCpuSeconds } from '../processes';
import type { Settings } from '../settings';
import { log, round } from '../util';
import type { CsvResult } from './csv';
import { total, up, type SideTotal } from './ablation';
import { floorTurn } from './delivery-floor';
import { jsonDeliveries } from './json-deliveries';

/** One side's deliveries (ablation.ts `total`: rows, seconds, runsPerSec, cpuMsPerRun) and their CPU summed. */
export type DeliveryCpuSide = SideTotal & { cpuMsTotal: number };

export interface DeliveryCpuLevel {
  senders: number;
  today: DeliveryCpuSide;
  baseline: DeliveryCpuSide | null;
  /** Today's deliveries/s ÷ the baseline's, by round and over all turns. */
  byRound: number[];
  ratio: number | null;
}

export interface DeliveryCpuResult {
  commit: string | null;
  levels: DeliveryCpuLevel[];
  /** The do-nothing delivery workflow on today's stack. */
  floor: { count: number; perSec: number; temporalCpuMs: number; benchProcessCpuMs: number };
}

function sideOf(turns: CsvResult[]): DeliveryCpuSide {
  const side = total(turns);
  return {
    ...side,
    cpuMsTotal: round(
      Object.values(side.cpuMsPerRun).reduce((n, ms) => n + ms, 0),
      1,
    ),
  };
}

/** `count` do-nothing delivery workflows on `own`'s Temporal, run by this process: their CPU. */
async function floorOn(own: StackOfItsOwn, count: number): Promise<DeliveryCpuResult['floor']> {
  const { stack } = own;
  return withBenchWorker(stack, 'cpu-floor', { benchNothing }, async (taskQueue) => {
    await floorTurn(own.clients, taskQueue, Math.min(100, count)); // the worker's first tasks, unmeasured
    log(`delivery cpu: ${count} do-nothing delivery workflows`);
    const [before, ownBefore] = [stackCpuSeconds(stack.pid), process.cpuUsage()];
    const seconds = await floorTurn(own.clients, taskQueue, count);
    const ownUsed = process.cpuUsage(ownBefore);
    const temporalCpuMs = cpuMsPer(before, stackCpuSeconds(stack.pid), count).temporal;
    const benchProcessCpuMs = msPer((ownUsed.user + ownUsed.system) / 1e6, count);
    return { count, perSec: round(count / seconds, 1), temporalCpuMs, benchProcessCpuMs };
  });
}

export async function deliveryCpu(s: Settings, cleanups: Array<() => Promise<void>>): Promise<DeliveryCpuResult> {
  const commit = s.baselineCommit || null;
  const today = await up(s, cleanups, {});
  try {
    const launcher = commit ? path.join(buildCommit(commit), 'dist/src/entry/embedded.js') : undefined;
    const baseline = launcher ? await up(s, cleanups, {}, launcher) : null;
    try {
      const each = Math.ceil(s.deliveryCpu / s.levelRounds);
      const levels: DeliveryCpuLevel[] = [];
      for (const senders of s.deliveryCpuLevels) {
        const turns: { today: CsvResult[]; baseline: CsvResult[] } = { today: [], baseline: [] };
        for (let r = 0; r < s.levelRounds; r++) {
          log(`delivery cpu: ${senders} senders, round ${r + 1} of ${s.levelRounds}, ${each} deliveries on each`);
          const order = r % 2 && baseline ? (['baseline', 'today'] as const) : (['today', 'baseline'] as const);
          for (const side of order) {
            const own = side === 'today' ? today : baseline;
            if (own) turns[side].push(await jsonDeliveries(own.clients, each, senders));
          }
        }
        const byRound = turns.baseline.map((b, i) => round(turns.today[i].runsPerSec / b.runsPerSec, 3));
        const [t, b] = [sideOf(turns.today), baseline ? sideOf(turns.baseline) : null];
        levels.push({
          senders,
          today: t,
          baseline: b,
          byRound,
          ratio: b ? round(t.runsPerSec / b.runsPerSec, 3) : null,
        });
      }
      // The baseline's stack idle beside it, as it was for today's turns.
      return { commit, levels, floor: await floorOn(today, s.deliveryCpu) };
    } finally {
      await baseline?.stop();
    }
  } finally {
    await today.stop();
  }
}
