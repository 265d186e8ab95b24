/**
 * `npm run bench`: the service's throughput on the embedded stack, with its baselines, in one run.
 *
 *   1. Ack path: JSON deliveries with unique keys per second and their ack latency, per
 *      concurrency level (autocannon in this process; the receiver is its own process).
 *   2. Baselines at the same levels: a bare Koa route answering 200 (own process), and a bare
 *      Temporal client starting workflows; the ack rate as a ratio of each. The ack load runs
 *      twice: with the worker paused (the server only takes starts, as for the bare ones) and
 *      with it running (the server also runs the deliveries).
 *   3. End to end: from a delivery's 200 to its run's outcome, and runs finished per second
 *      while the ack load ran.
 *   4. CSV fan-out: one CSV of BENCH_CSV_ROWS rows; seconds until every run succeeded, runs per
 *      second, and the worker's peak RSS. Before it, the engine's ceiling for a fan-out: children
 *      that do nothing, started the way the delivery workflow starts runs (bench/workflows.ts).
 *
 * Prints a table and writes bench-results/bench-<timestamp>.json. Settings (environment):
 *   BENCH_CONCURRENCY      levels, comma-separated            (default 1,16,64)
 *   BENCH_DURATION_S       seconds of load per level and kind (default 10)
 *   BENCH_CSV_ROWS         rows of the CSV, 0 to skip it      (default 100000)
 *   BENCH_FANOUT_BASELINE  children of the fan-out baseline, 0 to skip it (default 10000)
 *   BENCH_CSV_TIMEOUT_S    deadline for the CSV's runs        (default 3600)
 *   BENCH_DRAIN_TIMEOUT_S  deadline for a level's runs        (default 600)
 *   BENCH_POLL_S           seconds between database polls     (default 1)
 *   BENCH_LOG_LEVEL        LOG_LEVEL of the stack             (default warn)
 *   BENCH_HISTORY_LEVELS   runs per robot at which history reads are timed, 0 to skip (default 1000,10000,100000)
 *   BENCH_HISTORY_SAMPLES  timed requests per read and level  (default 200)
 *   BENCH_CSV_WATCHED      1: the CSV also runs (first) while a client polls the robot every 250 ms (default 1)
 *   BENCH_CSV_NO_KEEPER    1: first the same CSV on a stack whose worker runs no history keeper (default 1)
 *   BENCH_CSV_WARMUP       rows of an unmeasured CSV run on each stack before its first measured one (default 2000)
 *   BENCH_KEEP_DATA=1      keep the stack's data folder and logs (kept anyway on failure)
 */
import { Client, Connection as TemporalConnection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import mongoose from 'mongoose';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createModels, type Models } from '../src/storage/models';
import { HISTORY_READS, historyBench, type HistoryResult } from './history';
import {
  httpLoad,
  percentiles,
  temporalStarts,
  type HttpLoad,
  type HttpLoadSummary,
  type Percentiles,
  type StartRateSummary,
} from './load';
import {
  childRunning,
  launchEmbedded,
  memoryOf,
  stackCpuSeconds,
  startBareKoa,
  type EmbeddedStack,
  type StackRole,
} from './stack';
import type { BenchFanOut } from './workflows';

interface Settings {
  levels: number[];
  durationS: number;
  csvRows: number;
  fanOutBaseline: number;
  csvTimeoutS: number;
  drainTimeoutS: number;
  pollS: number;
  logLevel: string;
  keepData: boolean;
  historyLevels: number[];
  historySamples: number;
  csvWatched: boolean;
  csvNoKeeper: boolean;
  csvWarmup: number;
}

interface EndToEnd {
  acked: number;
  succeeded: number;
  failed: number;
  /** From the delivery's 200 to its run's finishedAt. */
  latencyMs: Percentiles;
  /** Runs of this level finished inside the load window, per second of it. */
  runsPerSecDuringLoad: number;
  /** From the end of the load until the last run finished. */
  drainS: number;
  /** Runs of this level per second from the start of the load until the last one finished. */
  runsPerSecToDrain: number;
}

interface LevelResult {
  connections: number;
  bareKoa: HttpLoadSummary;
  bareTemporal: StartRateSummary;
  /** The ack path with the worker paused (SIGSTOP): the server does nothing but the starts, as for the bare ones. */
  ackWorkerPaused: HttpLoadSummary;
  ackWorkerPausedVsTemporal: number;
  ack: HttpLoadSummary;
  ackVsKoa: number;
  ackVsTemporal: number;
  endToEnd: EndToEnd;
}

interface CsvResult {
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
  /** With a client polling GET /api/robots/:id every WATCH_INTERVAL_MS: its requests and their latency. */
  watcher: { polls: number; latencyMs: Percentiles } | null;
}

interface Results {
  startedAt: string;
  finishedAt: string | null;
  machine: Record<string, string | number>;
  settings: Settings;
  levels: LevelResult[];
  fanOutBaseline: FanOutBaseline | null;
  csv: CsvResult | null;
  csvWatched: CsvResult | null;
  /** The same CSV on a stack with no history keeper: what the runs cost without the run history. */
  csvNoKeeper: CsvResult | null;
  history: HistoryResult | null;
  error: string | null;
}

/** The engine's ceiling for a fan-out: children that do nothing, started as the delivery workflow starts runs. */
interface FanOutBaseline {
  children: number;
  seconds: number;
  childrenPerSec: number;
  /** CPU milliseconds per child: the Temporal server, and the bench process (its worker). */
  cpuMsPerChild: { temporal: number; benchWorker: number };
}

/** CPU milliseconds per run used by each of the stack's processes during a phase. */
type CpuPerRun = Record<StackRole, number>;

function cpuPerRun(before: Record<StackRole, number>, after: Record<StackRole, number>, runs: number): CpuPerRun {
  const per = (role: StackRole) => round(((after[role] - before[role]) * 1000) / Math.max(1, runs), 2);
  return { temporal: per('temporal'), ferretdb: per('ferretdb'), worker: per('worker'), receiver: per('receiver') };
}

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const MiB = 1024 * 1024;

function intSetting(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`${name} must be a whole number of at least ${min} (got "${raw}")`);
  return n;
}

function readSettings(): Settings {
  const levelsRaw = process.env.BENCH_CONCURRENCY?.trim() || '1,16,64';
  const levels = levelsRaw.split(',').map((s) => Number(s.trim()));
  if (levels.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`BENCH_CONCURRENCY must be whole numbers separated by commas (got "${levelsRaw}")`);
  const historyRaw = process.env.BENCH_HISTORY_LEVELS?.trim() || '1000,10000,100000';
  const historyLevels = historyRaw === '0' ? [] : historyRaw.split(',').map((v) => Number(v.trim()));
  if (historyLevels.some((n) => !Number.isInteger(n) || n < 100))
    throw new Error(`BENCH_HISTORY_LEVELS must be whole numbers of at least 100, or 0 (got "${historyRaw}")`);
  return {
    levels,
    durationS: intSetting('BENCH_DURATION_S', 10),
    csvRows: intSetting('BENCH_CSV_ROWS', 100_000, 0),
    fanOutBaseline: intSetting('BENCH_FANOUT_BASELINE', 10_000, 0),
    csvTimeoutS: intSetting('BENCH_CSV_TIMEOUT_S', 3600),
    drainTimeoutS: intSetting('BENCH_DRAIN_TIMEOUT_S', 600),
    pollS: intSetting('BENCH_POLL_S', 1),
    logLevel: process.env.BENCH_LOG_LEVEL || 'warn',
    keepData: process.env.BENCH_KEEP_DATA === '1',
    historyLevels,
    historySamples: intSetting('BENCH_HISTORY_SAMPLES', 200),
    csvWatched: process.env.BENCH_CSV_WATCHED !== '0',
    csvNoKeeper: process.env.BENCH_CSV_NO_KEEPER !== '0',
    csvWarmup: intSetting('BENCH_CSV_WARMUP', 2000, 0),
  };
}

function machineFacts(): Record<string, string | number> {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    totalMemoryGiB: round(os.totalmem() / 1024 ** 3, 1),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAverageAtStart: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
  };
}

/** The management API with the admin token; fails with the answer's status and body. */
function apiClient(baseUrl: string, token: string) {
  return async <T>(method: string, p: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${baseUrl}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${p} answered ${res.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text) as T;
  };
}
type Api = ReturnType<typeof apiClient>;

/** A robot at work on a new custom app with one compose step; its id and webhook URL (on 127.0.0.1). */
async function robotAtWork(
  api: Api,
  port: number,
  name: string,
  bodyFormat: 'json' | 'csv',
  template: Record<string, string>,
) {
  const app = await api<{ id: string }>('POST', '/api/apps', { name, supportsInboundTrigger: true, bodyFormat });
  const robot = await api<{ id: string }>('POST', '/api/robots', {
    name,
    trigger: { appId: app.id },
    steps: [{ name: 's', type: 'compose', template }],
  });
  const started = await api<{ trigger: { card: { webhookUrl: string | null } } }>(
    'POST',
    `/api/robots/${robot.id}/start`,
  );
  const url = started.trigger.card.webhookUrl;
  if (!url) throw new Error(`robot ${robot.id} was started but has no webhook URL`);
  return { robotId: robot.id, url: `http://127.0.0.1:${port}${new URL(url).pathname}` };
}

/** Polls `read` every `pollS` until it returns a value; fails with `describe()` after `timeoutS`. */
async function pollUntil<T>(
  read: () => Promise<T | undefined>,
  pollS: number,
  timeoutS: number,
  describe: () => string,
): Promise<T> {
  const deadline = Date.now() + timeoutS * 1000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${describe()} within ${timeoutS} s`);
    await sleep(pollS * 1000);
  }
}

/** A few sequential deliveries whose runs must finish: checks the whole path before measuring. */
async function warmUp(
  api: Api,
  models: Models,
  stack: EmbeddedStack,
  koaPort: number,
  temporal: Client,
  pollS: number,
): Promise<void> {
  const { robotId, url } = await robotAtWork(api, stack.port, 'bench warm-up', 'json', { id: '{{trigger.id}}' });
  const koaUrl = `http://127.0.0.1:${koaPort}${new URL(url).pathname}`;
  for (let i = 0; i < 10; i++) {
    for (const target of [url, koaUrl]) {
      const res = await fetch(target, {
        method: 'POST',
        body: JSON.stringify({ id: `warm-${i}` }),
        headers: { 'content-type': 'application/json' },
      });
      if (res.status !== 200) throw new Error(`a warm-up delivery to ${target} answered ${res.status}`);
    }
  }
  await temporal.workflow.start('benchNoop', {
    taskQueue: 'bench-nobody-polls',
    workflowId: `bench-warm-${randomBytes(4).toString('hex')}`,
  });
  let done = 0;
  await pollUntil(
    async () => ((done = await models.RunOutcome.countDocuments({ robotId })) >= 10 ? true : undefined),
    pollS,
    120,
    () => `only ${done} of 10 warm-up runs finished (is the worker running? see ${stack.logFile})`,
  );
}

/**
 * Counts workflows of one type that completed since `start()`, in Temporal's visibility store.
 * Progress is polled there rather than in the database: a FerretDB count scans the whole
 * collection (seconds at 100,000 runs), and doing that every second would take a core away from
 * what is being measured. A run's outcome is stored before its workflow completes.
 */
function completions(temporal: Client, type: 'deliveryWorkflow' | 'runWorkflow' | 'benchChild') {
  const query = `WorkflowType = '${type}' AND ExecutionStatus = 'Completed'`;
  const count = async () => (await temporal.workflow.count(query)).count;
  let before = 0;
  return {
    async start() {
      before = await count();
    },
    async sinceStart() {
      return (await count()) - before;
    },
  };
}
type Completions = ReturnType<typeof completions>;

/** Joins this level's runs with their outcomes once every acknowledged delivery's run has finished. */
async function endToEnd(
  models: Models,
  robotId: string,
  load: HttpLoad,
  deliveries: Completions,
  s: Settings,
): Promise<EndToEnd> {
  const acked = load.acks.size;
  let finished = 0;
  const joined = await pollUntil(
    async () => {
      finished = await deliveries.sinceStart();
      if (finished < acked) return undefined;
      const [runs, outcomes] = await Promise.all([
        models.Run.find({ robotId }, { trigger: 1 }).lean(),
        models.RunOutcome.find({ robotId }, { status: 1, finishedAt: 1 }).lean(),
      ]);
      const outcomeOf = new Map(outcomes.map((o) => [o._id, o]));
      const latencies: number[] = [];
      let failed = 0;
      for (const run of runs) {
        const body = 'json' in run.trigger ? (JSON.parse(run.trigger.json) as { id?: unknown }) : {};
        const ackedAt = typeof body.id === 'string' ? load.acks.get(body.id) : undefined;
        const outcome = outcomeOf.get(run._id);
        if (ackedAt === undefined || !outcome) continue;
        if (outcome.status === 'failed') failed++;
        else latencies.push(outcome.finishedAt.getTime() - ackedAt);
      }
      return latencies.length + failed >= acked
        ? { latencies, failed, finishedAt: outcomes.map((o) => o.finishedAt.getTime()) }
        : undefined;
    },
    s.pollS,
    s.drainTimeoutS,
    () =>
      `only ${finished} of the ${acked} acknowledged deliveries' runs at ${load.summary.connections} connections finished (BENCH_DRAIN_TIMEOUT_S)`,
  );
  const windowS = (load.endedAt - load.startedAt) / 1000;
  const inWindow = joined.finishedAt.filter((t) => t >= load.startedAt && t <= load.endedAt).length;
  const lastFinish = joined.finishedAt.reduce((a, b) => Math.max(a, b), load.endedAt);
  return {
    acked,
    succeeded: joined.latencies.length,
    failed: joined.failed,
    latencyMs: percentiles(joined.latencies),
    runsPerSecDuringLoad: round(inWindow / windowS, 1),
    drainS: round((lastFinish - load.endedAt) / 1000, 1),
    runsPerSecToDrain: round(acked / ((lastFinish - load.startedAt) / 1000), 1),
  };
}

async function measureLevel(connections: number, ctx: LevelContext): Promise<LevelResult> {
  const { api, models, stack, koaPort, temporal, s } = ctx;
  const tag = `c${connections}-${randomBytes(3).toString('hex')}`;
  const { robotId, url } = await robotAtWork(api, stack.port, `bench ${tag}`, 'json', { id: '{{trigger.id}}' });
  const koaUrl = `http://127.0.0.1:${koaPort}${new URL(url).pathname}`;

  log(`${connections} connections: bare Koa for ${s.durationS} s`);
  const bareKoa = (await httpLoad(koaUrl, connections, s.durationS, `koa-${tag}`)).summary;
  log(`${connections} connections: bare Temporal starts for ${s.durationS} s`);
  const bareTemporal = await temporalStarts(
    temporal,
    'bench-nobody-polls',
    connections,
    s.durationS,
    `bench-noop-${tag}`,
  );
  if (bareTemporal.started === 0) throw new Error(`no bare workflow start succeeded: ${bareTemporal.lastError}`);
  log(`${connections} connections: ack path with the worker paused for ${s.durationS} s`);
  const ackWorkerPaused = await ackWithWorkerPaused(connections, tag, ctx);
  log(`${connections} connections: ack path for ${s.durationS} s`);
  const deliveries = completions(temporal, 'deliveryWorkflow');
  await deliveries.start();
  const ack = await httpLoad(url, connections, s.durationS, `ack-${tag}`);
  if (ack.summary.ok === 0)
    throw new Error(
      `no delivery was acknowledged at ${connections} connections (${ack.summary.non2xx} non-2xx, ${ack.summary.errors} errors); see ${stack.logFile}`,
    );
  log(`${connections} connections: waiting for the ${ack.summary.ok} runs to finish`);
  const e2e = await endToEnd(models, robotId, ack, deliveries, s);
  return {
    connections,
    bareKoa,
    bareTemporal,
    ackWorkerPaused,
    ackWorkerPausedVsTemporal: round(ackWorkerPaused.perSec / Math.max(1, bareTemporal.perSec), 3),
    ack: ack.summary,
    ackVsKoa: round(ack.summary.perSec / Math.max(1, bareKoa.perSec), 3),
    ackVsTemporal: round(ack.summary.perSec / Math.max(1, bareTemporal.perSec), 3),
    endToEnd: e2e,
  };
}

type LevelContext = { api: Api; models: Models; stack: EmbeddedStack; koaPort: number; temporal: Client; s: Settings };

/**
 * The ack load with the stack's worker stopped (SIGSTOP), so that the server only takes starts,
 * as it does for the bare ones; then the worker goes on (SIGCONT) and this phase's runs are
 * drained before the next phase is measured.
 */
async function ackWithWorkerPaused(
  connections: number,
  tag: string,
  { api, stack, temporal, s }: LevelContext,
): Promise<HttpLoadSummary> {
  const { url } = await robotAtWork(api, stack.port, `bench ${tag} worker paused`, 'json', { id: '{{trigger.id}}' });
  const deliveries = completions(temporal, 'deliveryWorkflow');
  await deliveries.start();
  const worker = childRunning(stack.pid, 'entry/worker.js');
  if (worker === null) throw new Error('the worker process is not running');
  process.kill(worker, 'SIGSTOP');
  let load: HttpLoad;
  try {
    load = await httpLoad(url, connections, s.durationS, `paused-${tag}`);
  } finally {
    process.kill(worker, 'SIGCONT');
  }
  log(`${connections} connections: worker resumed, draining the ${load.summary.ok} runs of the paused phase`);
  let finished = 0;
  await pollUntil(
    async () => ((finished = await deliveries.sinceStart()) >= load.summary.ok ? true : undefined),
    s.pollS,
    s.drainTimeoutS,
    () => `only ${finished} of the ${load.summary.ok} runs of the paused phase finished (BENCH_DRAIN_TIMEOUT_S)`,
  );
  return load.summary;
}

/**
 * Children that do nothing, started by the bench's own worker (in this process) as the delivery
 * workflow starts runs: the engine's ceiling for a CSV fan-out on this machine.
 */
async function fanOutBaseline(stack: EmbeddedStack, temporal: Client, s: Settings): Promise<FanOutBaseline> {
  const children = s.fanOutBaseline;
  const taskQueue = `bench-fan-out-${randomBytes(3).toString('hex')}`;
  const connection = await NativeConnection.connect({ address: stack.temporalAddress });
  try {
    const worker = await Worker.create({
      connection,
      namespace: stack.namespace,
      taskQueue,
      workflowsPath: require.resolve('./workflows'),
    });
    return await worker.runUntil(async () => {
      log(`fan-out baseline: ${children} children that do nothing`);
      const tag = randomBytes(4).toString('hex');
      const done = completions(temporal, 'benchChild');
      await done.start();
      const cpuBefore = { stack: stackCpuSeconds(stack.pid), bench: process.cpuUsage() };
      const startedAt = Date.now();
      const args: [BenchFanOut] = [{ tag, children, next: 0 }];
      await temporal.workflow.start('benchFanOut', { taskQueue, workflowId: `bench-fan-out:${tag}`, args });
      let finished = 0;
      await pollUntil(
        async () => ((finished = await done.sinceStart()) >= children ? true : undefined),
        s.pollS,
        s.csvTimeoutS,
        () => `only ${finished} of the baseline's ${children} children finished (BENCH_CSV_TIMEOUT_S)`,
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
  } finally {
    await connection.close();
  }
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

/** How often the watcher of the watched CSV reads the robot: what a dashboard or a script watching an import does. */
const WATCH_INTERVAL_MS = 250;

/** Reads the robot every WATCH_INTERVAL_MS until stopped; returns how many reads and their latency. */
function watchRobot(api: Api, robotId: string) {
  const times: number[] = [];
  let stopped = false;
  const running = (async () => {
    while (!stopped) {
      const started = performance.now();
      await api('GET', `/api/robots/${robotId}`);
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

interface CsvContext {
  api: Api;
  models: Models;
  stack: EmbeddedStack;
  temporal: Client;
  s: Settings;
}

async function csvFanOut(ctx: CsvContext, watched = false, rows = ctx.s.csvRows): Promise<CsvResult> {
  const { api, models, stack, temporal, s } = ctx;
  const { robotId, url } = await robotAtWork(api, stack.port, watched ? 'bench csv, watched' : 'bench csv', 'csv', {
    to: '{{trigger.email}}',
  });
  const stopWatching = watched ? watchRobot(api, robotId) : null;
  const csv = ['n,email', ...Array.from({ length: rows }, (_, i) => `${i},user${i}@example.com`)].join('\n');
  const size = csv.length >= MiB ? `${round(csv.length / MiB, 1)} MiB` : `${round(csv.length / 1024, 1)} KiB`;
  log(`CSV fan-out: posting ${rows} rows (${size})`);
  const sampler = sampleWorker(stack.pid);
  let worker: ReturnType<typeof sampler.stop> | undefined;
  try {
    const runs = completions(temporal, 'runWorkflow');
    await runs.start();
    const cpuBefore = stackCpuSeconds(stack.pid);
    const postedAt = Date.now();
    const res = await fetch(url, { method: 'POST', body: csv, headers: { 'content-type': 'text/csv' } });
    const ackMs = Date.now() - postedAt;
    if (res.status !== 200) throw new Error(`the CSV was answered ${res.status}`);
    let finished = 0;
    let lastReport = Date.now();
    await pollUntil(
      async () => {
        finished = await runs.sinceStart();
        if (Date.now() - lastReport >= 15_000) {
          lastReport = Date.now();
          log(`CSV fan-out: ${finished} of ${rows} runs finished after ${round((Date.now() - postedAt) / 1000, 0)} s`);
        }
        return finished >= rows ? true : undefined;
      },
      s.pollS,
      s.csvTimeoutS,
      () => `only ${finished} of the CSV's ${rows} runs finished (BENCH_CSV_TIMEOUT_S)`,
    );
    worker = sampler.stop();
    const watcher = stopWatching ? await stopWatching() : null;
    const cpuMsPerRun = cpuPerRun(cpuBefore, stackCpuSeconds(stack.pid), rows);
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
      watcher,
    };
  } finally {
    if (!worker) sampler.stop();
  }
}

/**
 * An unmeasured CSV first: the first CSV on a fresh stack ran about 15% slower than the next one
 * (docs/benchmark.md), which would bias whichever was measured first.
 */
async function warmCsv(ctx: CsvContext): Promise<void> {
  if (ctx.s.csvWarmup === 0) return;
  log(`CSV warm-up: ${ctx.s.csvWarmup} rows, not measured`);
  await csvFanOut(ctx, false, ctx.s.csvWarmup);
}

/** The bench's own clients of a stack (its database, Temporal, the API); `close` ends them. */
async function clientsOf(stack: EmbeddedStack, s: Settings): Promise<CsvContext & { close(): Promise<void> }> {
  const db = mongoose.createConnection(stack.mongodbUri, {
    autoIndex: false,
    autoCreate: false,
    serverSelectionTimeoutMS: 10_000,
  });
  await db.asPromise();
  const connection = await TemporalConnection.connect({ address: stack.temporalAddress }).catch(
    async (err: unknown) => {
      await db.close();
      throw err;
    },
  );
  return {
    api: apiClient(`http://127.0.0.1:${stack.port}`, stack.adminToken),
    models: createModels(db),
    stack,
    temporal: new Client({ connection, namespace: stack.namespace }),
    s,
    async close() {
      await connection.close();
      await db.close();
    },
  };
}

/** The CSV on a stack of its own whose worker runs no history keeper (HISTORY_KEEPER=0). */
async function csvWithoutKeeper(s: Settings, cleanups: Array<() => Promise<void>>): Promise<CsvResult> {
  log('CSV fan-out without the history keeper: starting a stack of its own');
  const stack = await launchEmbedded({ logLevel: s.logLevel, startTimeoutS: 180, env: { HISTORY_KEEPER: '0' } });
  const stopStack = () => stack.stop(s.keepData);
  cleanups.push(stopStack);
  try {
    await stack.ready;
    const ctx = await clientsOf(stack, s);
    try {
      await warmCsv(ctx);
      return await csvFanOut(ctx);
    } finally {
      await ctx.close();
    }
  } finally {
    await stopStack();
    cleanups.splice(cleanups.indexOf(stopStack), 1);
  }
}

function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r: string[]) =>
    '  ' + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(cells[0]), '  ' + widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

const pct = (p: Percentiles) => `${p.p50} / ${p.p95} / ${p.p99}`;

function report(r: Results): string {
  const m = r.machine;
  const out = [
    '',
    `Webhook service benchmark, ${r.startedAt} (embedded stack: Temporal dev server + FerretDB on SQLite)`,
    `Machine: ${m.cpus} × ${m.cpuModel}, ${m.totalMemoryGiB} GiB, Node ${m.node}, load average at start ${m.loadAverageAtStart}`,
    `Load: ${r.settings.durationS} s per level and kind, JSON deliveries with unique keys, one request in flight per connection`,
  ];
  if (r.levels.length > 0)
    out.push(
      '',
      'Ack path and baselines (per second; latency p50 / p95 / p99 in ms)',
      table(
        [
          'connections',
          'acks/s',
          'ack latency',
          'bare Koa/s',
          'Koa latency',
          'ack÷Koa',
          'bare starts/s',
          'start latency',
          'ack÷starts',
          'non-2xx/err',
        ],
        r.levels.map((l) => [
          l.connections,
          l.ack.perSec,
          pct(l.ack.latencyMs),
          l.bareKoa.perSec,
          pct(l.bareKoa.latencyMs),
          l.ackVsKoa.toFixed(3),
          l.bareTemporal.perSec,
          pct(l.bareTemporal.latencyMs),
          l.ackVsTemporal.toFixed(3),
          `${l.ack.non2xx}/${l.ack.errors}`,
        ]),
      ),
      '',
      'Ack path with the worker paused (SIGSTOP): the server only takes starts, like the bare ones',
      table(
        ['connections', 'acks/s', 'ack latency', 'bare starts/s', 'ack÷starts', 'non-2xx/err'],
        r.levels.map((l) => [
          l.connections,
          l.ackWorkerPaused.perSec,
          pct(l.ackWorkerPaused.latencyMs),
          l.bareTemporal.perSec,
          l.ackWorkerPausedVsTemporal.toFixed(3),
          `${l.ackWorkerPaused.non2xx}/${l.ackWorkerPaused.errors}`,
        ]),
      ),
      '',
      "End to end (from the delivery's 200 to its run's outcome, ms)",
      table(
        [
          'connections',
          'acked',
          'succeeded',
          'failed',
          'p50',
          'p95',
          'p99',
          'runs/s during load',
          'drain after load (s)',
          'runs/s until drained',
        ],
        r.levels.map((l) => {
          const e = l.endToEnd;
          return [
            l.connections,
            e.acked,
            e.succeeded,
            e.failed,
            e.latencyMs.p50,
            e.latencyMs.p95,
            e.latencyMs.p99,
            e.runsPerSecDuringLoad,
            e.drainS,
            e.runsPerSecToDrain,
          ];
        }),
      ),
    );
  if (r.fanOutBaseline) {
    const b = r.fanOutBaseline;
    out.push(
      '',
      "Fan-out baseline (children that do nothing, started like runs: the engine's ceiling)",
      table(
        ['children', 'seconds', 'children/s', 'CPU ms per child: Temporal', 'bench worker'],
        [[b.children, b.seconds, b.childrenPerSec, b.cpuMsPerChild.temporal, b.cpuMsPerChild.benchWorker]],
      ),
    );
  }
  if (r.csv) {
    const c = r.csv;
    out.push(
      '',
      'CSV fan-out (one POST; seconds from the POST until the last run finished)',
      table(
        [
          'rows',
          'ack (ms)',
          'seconds',
          'runs/s',
          'runs/s ÷ baseline',
          'failed',
          'worker peak RSS (MiB)',
          'worker VmHWM (MiB)',
          'worker restarts',
        ],
        [
          [
            c.rows,
            c.ackMs,
            c.seconds,
            c.runsPerSec,
            r.fanOutBaseline ? (c.runsPerSec / r.fanOutBaseline.childrenPerSec).toFixed(2) : 'n/a',
            c.failed,
            c.workerPeakRssMiB ?? 'n/a',
            c.workerHwmMiB ?? 'n/a',
            c.workerRestarts,
          ],
        ],
      ),
      '',
      'CPU milliseconds per run during the CSV fan-out, by process',
      table(
        ['Temporal', 'worker', 'FerretDB', 'receiver'],
        [[c.cpuMsPerRun.temporal, c.cpuMsPerRun.worker, c.cpuMsPerRun.ferretdb, c.cpuMsPerRun.receiver]],
      ),
    );
  }
  if (r.csv && r.csvNoKeeper) {
    const [c, n] = [r.csv, r.csvNoKeeper];
    out.push(
      '',
      'The same CSV on a stack whose worker runs no history keeper (the runs without the run history)',
      table(
        ['rows', 'seconds', 'runs/s', 'with keeper ÷ without', 'CPU ms per run: Temporal', 'worker', 'FerretDB'],
        [
          [
            n.rows,
            n.seconds,
            n.runsPerSec,
            (c.runsPerSec / n.runsPerSec).toFixed(2),
            n.cpuMsPerRun.temporal,
            n.cpuMsPerRun.worker,
            n.cpuMsPerRun.ferretdb,
          ],
        ],
      ),
    );
  }
  if (r.csv && r.csvWatched) {
    const [c, w] = [r.csv, r.csvWatched];
    out.push(
      '',
      `CSV fan-out while a client reads the robot every ${WATCH_INTERVAL_MS} ms (the same CSV, run just before the unwatched one)`,
      table(
        [
          'rows',
          'seconds',
          'runs/s',
          'runs/s ÷ unwatched',
          'robot reads',
          'read latency',
          'CPU ms per run: Temporal',
          'worker',
          'FerretDB',
        ],
        [
          [
            w.rows,
            w.seconds,
            w.runsPerSec,
            (w.runsPerSec / c.runsPerSec).toFixed(2),
            w.watcher?.polls ?? 0,
            w.watcher ? pct(w.watcher.latencyMs) : 'n/a',
            w.cpuMsPerRun.temporal,
            w.cpuMsPerRun.worker,
            w.cpuMsPerRun.ferretdb,
          ],
        ],
      ),
    );
  }
  if (r.history) {
    const h = r.history;
    const rows = [
      ['1 page (baseline)', ...HISTORY_READS.map((k) => pct(h.baselineMs[k]))],
      ...h.levels.map((l) => [String(l.runsPerRobot), ...HISTORY_READS.map((k) => pct(l.readsMs[k]))]),
    ];
    out.push(
      '',
      `History reads, ms p50 / p95 / p99 (${h.samples} requests each through the API; as many runs of another robot stored)`,
      table(['runs per robot', ...HISTORY_READS], rows),
      '',
      'p95 ÷ baseline p95, and seconds to seed and for the history to show every run',
      table(
        ['runs per robot', ...HISTORY_READS, 'seed s', 'history built s'],
        h.levels.map((l) => [
          l.runsPerRobot,
          ...HISTORY_READS.map((k) => (l.readsMs[k].p95 / h.baselineMs[k].p95).toFixed(2)),
          round(l.seedSeconds, 1),
          round(l.keeperSeconds, 1),
        ]),
      ),
    );
  }
  if (r.error) out.push('', `FAILED: ${r.error}`);
  return out.join('\n') + '\n';
}

function writeResults(r: Results): string {
  const dir = path.resolve(__dirname, '../../bench-results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `bench-${r.startedAt.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(r, null, 2) + '\n');
  return file;
}

async function main(): Promise<number> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const s = readSettings();
  const results: Results = {
    startedAt: new Date().toISOString(),
    finishedAt: null,
    machine: machineFacts(),
    settings: s,
    levels: [],
    fanOutBaseline: null,
    csv: null,
    csvWatched: null,
    csvNoKeeper: null,
    history: null,
    error: null,
  };
  const cleanups: Array<() => Promise<void>> = [];
  let stopping: Promise<void> | undefined;
  const stopAll = () =>
    (stopping ??= (async () => {
      for (const cleanup of cleanups.slice().reverse())
        await cleanup().catch((err: Error) => log(`while stopping: ${err.message}`));
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping everything`);
      results.error ??= `interrupted (${signal})`;
      void stopAll().finally(() => process.exit(130));
    });
  }

  try {
    // First and on its own stack, so that the main stack's figures are as they always were.
    if (s.csvRows > 0 && s.csvNoKeeper) results.csvNoKeeper = await csvWithoutKeeper(s, cleanups);
    log('starting the embedded stack');
    const stack = await launchEmbedded({ logLevel: s.logLevel, startTimeoutS: 180 });
    cleanups.push(() => stack.stop(s.keepData || (results.error !== null && !results.error.startsWith('interrupted'))));
    await stack.ready;
    const koa = await startBareKoa();
    cleanups.push(() => koa.stop());
    const clients = await clientsOf(stack, s);
    cleanups.push(() => clients.close());
    const { api, models, temporal } = clients;

    // First, while the store holds nothing else: the baseline of the history reads is an empty store.
    if (s.historyLevels.length > 0) {
      results.history = await historyBench({
        api,
        models,
        samples: s.historySamples,
        levels: s.historyLevels,
        pollS: s.pollS,
        log,
        newRobot: async (name) => (await robotAtWork(api, stack.port, name, 'json', { n: '{{trigger.n}}' })).robotId,
      });
    }
    log('warming up (10 deliveries through the whole path)');
    await warmUp(api, models, stack, koa.port, temporal, s.pollS);
    for (const connections of s.levels) {
      results.levels.push(await measureLevel(connections, { api, models, stack, koaPort: koa.port, temporal, s }));
    }
    if (s.fanOutBaseline > 0) results.fanOutBaseline = await fanOutBaseline(stack, temporal, s);
    if (s.csvRows > 0) {
      await warmCsv(clients);
      // Watched first: later CSVs on one stack ran faster, so this order can only make watching look worse.
      if (s.csvWatched) results.csvWatched = await csvFanOut(clients, true);
      results.csv = await csvFanOut(clients);
    }
  } catch (err) {
    results.error = (err as Error).message;
  } finally {
    results.finishedAt = new Date().toISOString();
    log('stopping everything');
    await stopAll();
  }
  process.stdout.write(report(results));
  process.stdout.write(`\nResults: ${writeResults(results)}\n`);
  return results.error ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  },
);
