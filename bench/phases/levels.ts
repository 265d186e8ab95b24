/**
 * One concurrency level: the bare Koa and bare Temporal baselines, the ack path with the worker
 * paused and with it running, and end to end from each delivery's 200 to its run's outcome.
 */
import { randomBytes } from 'node:crypto';
import { waitFor } from '../../src/runtime/wait';
import { benchRobot, completions, type BenchContext, type Completions } from '../context';
import {
  httpLoad,
  percentiles,
  temporalStarts,
  type HttpLoad,
  type HttpLoadSummary,
  type Percentiles,
  type StartRateSummary,
  type StartShape,
} from '../load';
import { childrenRunning, cpuMsPer, cpuSecondsOf, msPer, stackCpuSeconds } from '../processes';
import { log, round } from '../util';

export interface EndToEnd {
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

export interface LevelResult {
  connections: number;
  bareKoa: HttpLoadSummary;
  bareTemporal: StartRateSummary;
  /** Bare starts carrying what a delivery's start carries besides its input (memo, search attributes, summary). */
  deliveryShapedStarts: StartRateSummary;
  /** Temporal's CPU milliseconds per start: bare, and carrying a delivery's attributes. */
  temporalCpuMsPerStart: { bare: number; deliveryShaped: number };
  /**
   * CPU of the bench's own process per start (the receiver's connection and codec, no HTTP): what
   * the start itself costs a client, to set against the receiver's CPU per ack.
   */
  clientCpuMsPerStart: { bare: number; deliveryShaped: number };
  /** The ack path with the worker paused (SIGSTOP): the server does nothing but the starts, as for the bare ones. */
  ackWorkerPaused: HttpLoadSummary;
  /** CPU milliseconds per ack of the receiver and of Temporal, with the worker paused. */
  cpuMsPerAck: { receiver: number; temporal: number };
  ackWorkerPausedVsTemporal: number;
  /**
   * The ack path's floor (bench/bare-receiver.ts: Koa and a delivery-shaped start, nothing of the
   * receiver's own), right after the paused acks and still with the worker paused; its process's
   * and Temporal's CPU milliseconds per ack; the paused acks ÷ it. Null where there is none (the
   * cluster).
   */
  floor: {
    load: HttpLoadSummary;
    cpuMsPerAck: number;
    temporalCpuMsPerAck: number;
    ackWorkerPausedVsFloor: number;
  } | null;
  ack: HttpLoadSummary;
  ackVsKoa: number;
  ackVsTemporal: number;
  endToEnd: EndToEnd;
}

/** The bare Koa baseline's port, and the ack path's floor (bench/bare-receiver.ts) where there is one. */
export type LevelContext = BenchContext & { koaPort: number; floor?: { port: number; pid: number } };

/** Joins this level's runs with their outcomes once every acknowledged delivery's run has finished. */
async function endToEnd(
  { models, s }: BenchContext,
  robotId: string,
  load: HttpLoad,
  deliveries: Completions,
): Promise<EndToEnd> {
  const acked = load.acks.size;
  let finished = 0;
  const joined = await waitFor(
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
    (value) => value !== undefined,
    s.drainTimeoutS * 1000,
    {
      intervalMs: s.pollS * 1000,
      message: () =>
        `only ${finished} of the ${acked} acknowledged deliveries' runs at ${load.summary.connections} ` +
        `connections finished (BENCH_DRAIN_TIMEOUT_S) within ${s.drainTimeoutS} s`,
    },
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

export async function measureLevel(connections: number, ctx: LevelContext): Promise<LevelResult> {
  const { api, stack, koaPort, temporal, s } = ctx;
  const tag = `c${connections}-${randomBytes(3).toString('hex')}`;
  const { robotId, url } = await benchRobot(api, stack.port, `bench ${tag}`, 'json', { id: '{{trigger.id}}' });
  const koaUrl = `http://127.0.0.1:${koaPort}${new URL(url).pathname}`;

  log(`${connections} connections: bare Koa for ${s.durationS} s`);
  const bareKoa = (await httpLoad(koaUrl, connections, s.durationS, `koa-${tag}`)).summary;
  const startsOf = async (shape: StartShape) => {
    log(
      `${connections} connections: ${shape === 'bare' ? 'bare' : 'delivery-shaped'} Temporal starts for ${s.durationS} s`,
    );
    const before = stackCpuSeconds(stack.pid).temporal;
    const clientBefore = process.cpuUsage();
    const starts = await temporalStarts(
      temporal,
      'bench-nobody-polls',
      connections,
      s.durationS,
      `bench-noop-${shape}-${tag}`,
      shape,
    );
    if (starts.started === 0) throw new Error(`no ${shape} workflow start succeeded: ${starts.lastError}`);
    const client = process.cpuUsage(clientBefore);
    const cpuMs = round(((stackCpuSeconds(stack.pid).temporal - before) * 1000) / starts.started, 3);
    return { starts, cpuMs, clientCpuMs: round((client.user + client.system) / 1000 / starts.started, 3) };
  };
  const bare = await startsOf('bare');
  const deliveryShaped = await startsOf('delivery');
  const bareTemporal = bare.starts;
  log(`${connections} connections: ack path with the worker paused for ${s.durationS} s`);
  const { summary: ackWorkerPaused, cpuMsPerAck, floor } = await ackWithWorkerPaused(connections, tag, ctx);
  log(`${connections} connections: ack path for ${s.durationS} s`);
  const deliveries = completions(temporal, 'deliveryWorkflow');
  await deliveries.start();
  const ack = await httpLoad(url, connections, s.durationS, `ack-${tag}`);
  if (ack.summary.ok === 0)
    throw new Error(
      `no delivery was acknowledged at ${connections} connections (${ack.summary.non2xx} non-2xx, ` +
        `${ack.summary.errors} errors); see ${stack.logFile}`,
    );
  log(`${connections} connections: waiting for the ${ack.summary.ok} runs to finish`);
  const e2e = await endToEnd(ctx, robotId, ack, deliveries);
  return {
    connections,
    bareKoa,
    bareTemporal,
    deliveryShapedStarts: deliveryShaped.starts,
    temporalCpuMsPerStart: { bare: bare.cpuMs, deliveryShaped: deliveryShaped.cpuMs },
    clientCpuMsPerStart: { bare: bare.clientCpuMs, deliveryShaped: deliveryShaped.clientCpuMs },
    ackWorkerPaused,
    cpuMsPerAck,
    ackWorkerPausedVsTemporal: round(ackWorkerPaused.perSec / Math.max(1, bareTemporal.perSec), 3),
    floor,
    ack: ack.summary,
    ackVsKoa: round(ack.summary.perSec / Math.max(1, bareKoa.perSec), 3),
    ackVsTemporal: round(ack.summary.perSec / Math.max(1, bareTemporal.perSec), 3),
    endToEnd: e2e,
  };
}

/**
 * The ack load with the stack's workers stopped (SIGSTOP), so that the server only takes starts,
 * as it does for the bare ones; then the worker goes on (SIGCONT) and this phase's runs are
 * drained before the next phase is measured.
 */
async function ackWithWorkerPaused(
  connections: number,
  tag: string,
  { api, stack, temporal, s, floor: floorProcess }: LevelContext,
): Promise<{ summary: HttpLoadSummary; cpuMsPerAck: LevelResult['cpuMsPerAck']; floor: LevelResult['floor'] }> {
  const { url } = await benchRobot(api, stack.port, `bench ${tag} worker paused`, 'json', { id: '{{trigger.id}}' });
  const deliveries = completions(temporal, 'deliveryWorkflow');
  await deliveries.start();
  const workers = childrenRunning(stack.pid, 'entry/worker.js');
  if (workers.length === 0) throw new Error('no worker process is running');
  for (const worker of workers) process.kill(worker, 'SIGSTOP');
  let load: HttpLoad;
  let floor: LevelResult['floor'] = null;
  const before = stackCpuSeconds(stack.pid);
  let after: typeof before;
  try {
    load = await httpLoad(url, connections, s.durationS, `paused-${tag}`);
    after = stackCpuSeconds(stack.pid);
    if (floorProcess) {
      log(`${connections} connections: the ack path's floor (Koa and a delivery's start) for ${s.durationS} s`);
      const floorUrl = `http://127.0.0.1:${floorProcess.port}${new URL(url).pathname}`;
      const cpuBefore = cpuSecondsOf(floorProcess.pid);
      const temporalBefore = stackCpuSeconds(stack.pid).temporal;
      const floorLoad = (await httpLoad(floorUrl, connections, s.durationS, `floor-${tag}`)).summary;
      floor = {
        load: floorLoad,
        cpuMsPerAck: msPer(cpuSecondsOf(floorProcess.pid) - cpuBefore, floorLoad.ok, 3),
        temporalCpuMsPerAck: msPer(stackCpuSeconds(stack.pid).temporal - temporalBefore, floorLoad.ok, 3),
        ackWorkerPausedVsFloor: round(load.summary.perSec / Math.max(1, floorLoad.perSec), 3),
      };
    }
  } finally {
    for (const worker of workers) process.kill(worker, 'SIGCONT');
  }
  const perAck = cpuMsPer(before, after, load.summary.ok, 3);
  const cpuMsPerAck = { receiver: perAck.receiver, temporal: perAck.temporal };
  log(`${connections} connections: worker resumed, draining the ${load.summary.ok} runs of the paused phase`);
  await waitFor(
    () => deliveries.sinceStart(),
    (finished) => finished >= load.summary.ok,
    s.drainTimeoutS * 1000,
    {
      intervalMs: s.pollS * 1000,
      message: (finished) =>
        `only ${finished} of the ${load.summary.ok} runs of the paused phase finished (BENCH_DRAIN_TIMEOUT_S) ` +
        `within ${s.drainTimeoutS} s`,
    },
  );
  return { summary: load.summary, cpuMsPerAck, floor };
}
