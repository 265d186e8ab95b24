/**
 * The CSV fan-out: one CSV of BENCH_CSV_ROWS rows; seconds until every run succeeded, runs per
 * second (over the whole CSV, its first tenth and its last tenth: a store that grows must not slow
 * the runs), the worker's peak RSS and each process's CPU per run. Also watched (a client reads
 * the robot meanwhile, or the dashboard's robot page is left open), and on a stack of its own
 * whose worker runs no history keeper.
 *
 * Progress is read where it costs the same at any size: the robot's counts (three reads by `_id`).
 * A stack without the history keeper has none, so there Temporal counts the completed runs, which
 * scans every run it keeps and holds the dev server's one SQLite connection meanwhile: only every
 * SCAN_POLL_S seconds (asked every second, it slowed the runs it counted more and more as they grew).
 */
import { waitFor } from '../../src/launch/os/wait';
import type { ApiClient } from '../../src/client/api-client';
import { benchRobot, completions, stackOfItsOwn, type BenchContext } from '../context';
import { percentiles, type Percentiles } from '../load';
import { openRobotPage } from '../page-load';
import type { Settings } from '../settings';
import { childRunning, cpuMsPer, memoryOf, stackCpuSeconds, type StackRole } from '../processes';
import { MiB, log, round, sleep } from '../util';

/** CPU milliseconds per run used by each of the stack's processes during a phase. */
export type CpuPerRun = Record<StackRole, number>;

/** How often Temporal's count of completed runs is asked, on a stack without the history keeper. */
export const SCAN_POLL_S = 10;

/**
 * Runs per second over the CSV's first tenth and its last tenth, and last ÷ first; and each tenth
 * on its own with each process's CPU per run in it, so that a pace that changes shows where
 * (the first tenth also holds the stack's warming).
 */
export interface CsvPace {
  firstTenth: number;
  lastTenth: number;
  ratio: number;
  tenths: Array<{ runsPerSec: number; cpuMsPerRun: CpuPerRun }>;
}

/** A progress read: seconds since the POST, runs finished, and the stack's CPU seconds by process. */
type ProgressSample = [seconds: number, finished: number, cpu: Record<StackRole, number>];

export interface CsvResult {
  rows: number;
  ackMs: number;
  seconds: number;
  runsPerSec: number;
  failed: number;
  /** Highest VmRSS sampled every second while the CSV ran. */
  workerPeakRssMiB: number | null;
  /** VmHWM at the end: the worker process's peak over its whole life (the ack levels too). */
  workerHwmMiB: number | null;
  workerRestarts: number;
  cpuMsPerRun: CpuPerRun;
  /** Runs per second at the start and at the end (from the progress read every BENCH_POLL_S). */
  pace: CsvPace | null;
  /** While watched (see Watcher): the watcher's API requests, their latency, and (page) chromium's CPU. */
  watcher: { polls: number; latencyMs: Percentiles; cpuSeconds?: number } | null;
}

/** Samples the worker's RSS every second (following a restart) until stopped. */
function sampleWorker(launcherPid: number) {
  let peak: number | null = null;
  const pids = new Set<number>();
  const sample = () => {
    const pid = childRunning(launcherPid, 'entry/worker.js');
    if (pid === null) return;
    pids.add(pid);
    const mem = memoryOf(pid);
    if (mem) peak = Math.max(peak ?? 0, mem.rss);
  };
  sample();
  const timer = setInterval(sample, 1000);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const pid = childRunning(launcherPid, 'entry/worker.js');
      const hwm = pid === null ? null : (memoryOf(pid)?.hwm ?? null);
      return { peakRss: peak, hwm, restarts: Math.max(0, pids.size - 1) };
    },
  };
}

/**
 * Who watches the CSV while it runs: `api`, a client polling GET /api/robots/:id every
 * WATCH_INTERVAL_MS (a script watching an import); `page`, the dashboard's robot page left open in
 * chromium, which follows new runs and deliveries by itself.
 */
export type Watcher = 'api' | 'page';

/** How often the `api` watcher reads the robot: what a dashboard or a script watching an import does. */
export const WATCH_INTERVAL_MS = 250;

/** Reads the robot every WATCH_INTERVAL_MS until stopped; returns how many reads and their latency. */
function watchRobot(api: ApiClient, robotId: string) {
  const times: number[] = [];
  let stopped = false;
  const running = (async () => {
    while (!stopped) {
      const started = performance.now();
      await api.call('getRobot', { params: { id: robotId } });
      times.push(performance.now() - started);
      await sleep(WATCH_INTERVAL_MS);
    }
  })();
  return async () => {
    stopped = true;
    await running;
    return { polls: times.length, latencyMs: percentiles(times) };
  };
}

/** Seconds (since the POST) at which `count` runs had finished, interpolated between two reads. */
function secondsAt(series: ProgressSample[], count: number): number | null {
  for (let i = 1; i < series.length; i++) {
    const [t0, n0] = series[i - 1];
    const [t1, n1] = series[i];
    if (n1 >= count) return n1 === n0 ? t1 : t0 + ((count - n0) / (n1 - n0)) * (t1 - t0);
  }
  return null;
}

/** The first progress read at which `count` runs had finished (its CPU is the tenth's boundary). */
function sampleAt(series: ProgressSample[], count: number): ProgressSample | null {
  return series.find(([, finished]) => finished >= count) ?? null;
}

/** The pace of the first and the last tenth of the runs, and of each (null for CSVs too short to tell). */
function paceOf(series: ProgressSample[], rows: number, seconds: number): CsvPace | null {
  const tenth = Math.floor(rows / 10);
  const first = secondsAt(series, tenth);
  const lastStart = secondsAt(series, rows - tenth);
  if (tenth < 100 || first === null || lastStart === null || first <= 0 || seconds <= lastStart) return null;
  const [firstTenth, lastTenth] = [tenth / first, tenth / (seconds - lastStart)];
  const tenths = Array.from({ length: 10 }, (_, i) => {
    const [from, to] = [sampleAt(series, i * tenth), sampleAt(series, i === 9 ? rows : (i + 1) * tenth)];
    const [start, end] = [
      secondsAt(series, i * tenth) ?? 0,
      i === 9 ? seconds : (secondsAt(series, (i + 1) * tenth) ?? 0),
    ];
    const runs = from && to ? to[1] - from[1] : 0;
    return {
      runsPerSec: round(tenth / Math.max(0.001, end - start), 1),
      cpuMsPerRun: from && to ? cpuMsPer(from[2], to[2], runs) : cpuMsPer(series[0][2], series[0][2], 1),
    };
  });
  return {
    firstTenth: round(firstTenth, 1),
    lastTenth: round(lastTenth, 1),
    ratio: round(lastTenth / firstTenth, 3),
    tenths,
  };
}

export async function csvFanOut(
  ctx: BenchContext,
  watcher: Watcher | null = null,
  rows = ctx.s.csvRows,
  /** Progress read from the robot's counts (its worker runs the history keeper); false: Temporal's count. */
  keeper = true,
): Promise<CsvResult> {
  const { api, models, stack, temporal, s } = ctx;
  const name = watcher ? `bench csv, watched (${watcher})` : 'bench csv';
  const { robotId, url } = await benchRobot(api, stack.origin, name, 'csv', { to: '{{trigger.email}}' });
  const stopWatching =
    watcher === 'api'
      ? watchRobot(api, robotId)
      : watcher === 'page'
        ? await openRobotPage({ baseUrl: api.baseUrl, adminToken: stack.adminToken }, robotId)
        : null;
  const csv = ['n,email', ...Array.from({ length: rows }, (_, i) => `${i},user${i}@example.com`)].join('\n');
  const size = csv.length >= MiB ? `${round(csv.length / MiB, 1)} MiB` : `${round(csv.length / 1024, 1)} KiB`;
  log(`CSV fan-out: posting ${rows} rows (${size})`);
  const sampler = sampleWorker(stack.pid);
  let worker: ReturnType<typeof sampler.stop> | undefined;
  try {
    const runs = completions(temporal, 'runWorkflow');
    if (!keeper) await runs.start();
    const finishedRuns = keeper
      ? async () => {
          const runCounts = (await api.call('getRobot', { params: { id: robotId } })).runCounts!;
          return runCounts.succeeded + runCounts.failed;
        }
      : () => runs.sinceStart();
    const cpuBefore = stackCpuSeconds(stack.pid);
    const postedAt = Date.now();
    const res = await fetch(url, { method: 'POST', body: csv, headers: { 'content-type': 'text/csv' } });
    const ackMs = Date.now() - postedAt;
    if (res.status !== 200) throw new Error(`the CSV was answered ${res.status}`);
    let lastReport = Date.now();
    const series: ProgressSample[] = [[0, 0, cpuBefore]];
    await waitFor(
      async () => {
        const finished = await finishedRuns();
        series.push([(Date.now() - postedAt) / 1000, finished, stackCpuSeconds(stack.pid)]);
        if (Date.now() - lastReport >= 15_000) {
          lastReport = Date.now();
          log(`CSV fan-out: ${finished} of ${rows} runs finished after ${round((Date.now() - postedAt) / 1000, 0)} s`);
        }
        return finished;
      },
      (finished) => finished >= rows,
      s.csvTimeoutS * 1000,
      {
        intervalMs: (keeper ? s.pollS : Math.max(s.pollS, SCAN_POLL_S)) * 1000,
        message: (finished) =>
          `only ${finished} of the CSV's ${rows} runs finished (BENCH_CSV_TIMEOUT_S) within ${s.csvTimeoutS} s`,
      },
    );
    worker = sampler.stop();
    const watched = stopWatching ? await stopWatching() : null;
    const cpuMsPerRun = cpuMsPer(cpuBefore, stackCpuSeconds(stack.pid), rows);
    const last = await models.RunOutcome.findOne({ robotId }, { finishedAt: 1 }).sort({ finishedAt: -1 }).lean();
    const seconds = ((last?.finishedAt.getTime() ?? Date.now()) - postedAt) / 1000;
    return {
      rows,
      ackMs,
      seconds: round(seconds, 1),
      runsPerSec: round(rows / seconds, 1),
      failed: await models.RunOutcome.countDocuments({ robotId, status: 'failed' }),
      workerPeakRssMiB: worker.peakRss === null ? null : round(worker.peakRss / MiB, 0),
      workerHwmMiB: worker.hwm === null ? null : round(worker.hwm / MiB, 0),
      workerRestarts: worker.restarts,
      cpuMsPerRun,
      pace: keeper ? paceOf(series, rows, seconds) : null,
      watcher: watched,
    };
  } finally {
    if (!worker) {
      sampler.stop();
      await stopWatching?.();
    }
  }
}

/**
 * An unmeasured CSV first: the first CSV on a fresh stack ran about 15% slower than the next one
 * (docs/benchmark.md), which would bias whichever was measured first.
 */
export async function warmCsv(ctx: BenchContext, keeper = true): Promise<void> {
  if (ctx.s.csvWarmup === 0) return;
  log(`CSV warm-up: ${ctx.s.csvWarmup} rows, not measured`);
  await csvFanOut(ctx, null, ctx.s.csvWarmup, keeper);
}

/** A CSV of `rows` on a stack of its own (`env` set, another build's `launcher`), after the warm-up CSV. */
export async function csvOnStackOfItsOwn(
  s: Settings,
  cleanups: Array<() => Promise<void>>,
  rows: number,
  env: NodeJS.ProcessEnv,
  launcher?: string,
): Promise<CsvResult> {
  const own = await stackOfItsOwn(s, cleanups, env, launcher);
  try {
    const keeper = env.HISTORY_KEEPER !== '0';
    await warmCsv(own.clients, keeper);
    return await csvFanOut(own.clients, null, rows, keeper);
  } finally {
    await own.stop();
  }
}

/** The CSV on a stack of its own whose worker runs no history keeper (HISTORY_KEEPER=0). */
export function csvWithoutKeeper(s: Settings, cleanups: Array<() => Promise<void>>): Promise<CsvResult> {
  log('CSV fan-out without the history keeper: starting a stack of its own');
  return csvOnStackOfItsOwn(s, cleanups, s.csvRows, { HISTORY_KEEPER: '0' });
}
