/** The fan-out baseline: the engine's ceiling for a CSV fan-out (bench/workflows.ts). */
import type { Client } from '@temporalio/client';
import { randomBytes } from 'node:crypto';
import { waitFor } from '../../src/launch/os/wait';
import { withBenchWorker } from '../bench-worker';
import { completions } from '../context';
import type { Settings } from '../settings';
import { stackCpuSeconds } from '../processes';
import type { BenchStack } from '../stack';
import { log, round } from '../util';
import type { BenchFanOut } from '../workflows';

/** The engine's ceiling for a fan-out: children that do nothing, started as the delivery workflow starts runs. */
export interface FanOutBaseline {
  children: number;
  seconds: number;
  childrenPerSec: number;
  /** CPU milliseconds per child: the Temporal server, and the bench process (its worker). */
  cpuMsPerChild: { temporal: number; benchWorker: number };
}

/**
 * Children that do nothing, started by the bench's own worker (in this process) as the delivery
 * workflow starts runs: the engine's ceiling for a CSV fan-out on this machine.
 */
export async function fanOutBaseline(stack: BenchStack, temporal: Client, s: Settings): Promise<FanOutBaseline> {
  const children = s.fanOutBaseline;
  return withBenchWorker(stack, 'fan-out', {}, async (taskQueue) => {
    log(`fan-out baseline: ${children} children that do nothing`);
    const tag = randomBytes(4).toString('hex');
    const done = completions(temporal, 'benchChild');
    await done.start();
    const cpuBefore = { stack: stackCpuSeconds(stack.pid), bench: process.cpuUsage() };
    const startedAt = Date.now();
    const args: [BenchFanOut] = [{ tag, children, next: 0 }];
    await temporal.workflow.start('benchFanOut', { taskQueue, workflowId: `bench-fan-out:${tag}`, args });
    await waitFor(
      () => done.sinceStart(),
      (finished) => finished >= children,
      s.csvTimeoutS * 1000,
      {
        intervalMs: s.pollS * 1000,
        message: (finished) =>
          `only ${finished} of the baseline's ${children} children finished (BENCH_CSV_TIMEOUT_S) ` +
          `within ${s.csvTimeoutS} s`,
      },
    );
    const seconds = (Date.now() - startedAt) / 1000;
    const temporalCpu = stackCpuSeconds(stack.pid).temporal - cpuBefore.stack.temporal;
    const benchCpu = process.cpuUsage(cpuBefore.bench);
    return {
      children,
      seconds: round(seconds, 1),
      childrenPerSec: round(children / seconds, 1),
      cpuMsPerChild: {
        temporal: round((temporalCpu * 1000) / children, 2),
        benchWorker: round((benchCpu.user + benchCpu.system) / 1000 / children, 2),
      },
    };
  });
}
