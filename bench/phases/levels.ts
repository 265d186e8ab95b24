/**
 * One concurrency level: the bare Koa and bare Temporal baselines, the ack path with the worker
 * paused and with it running, and end to end from each delivery's 200 to its run's outcome. The
 * bare and delivery-shaped starts, the paused acks and the floor take turns (./level-turns.ts).
 */
import { randomBytes } from 'node:crypto';
import { waitFor } from '../../src/launch/os/wait';
import { benchRobot, completions, type BenchContext, type Completions } from '../context';
import {
  httpLoad,
  percentiles,
  type HttpLoad,
  type HttpLoadSummary,
  type Percentiles,
  type StartRateSummary,
} from '../load';
import { log, round } from '../util';
import { startsAndPausedAcksInTurns, type LevelContext } from './level-turns';

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
  /** The cluster's PostgreSQL's CPU ms per bare start and per ack with the worker paused (0 on the dev server). */
  postgresqlCpuMs?: { bareStart: number; ack: number };
  /**
   * CPU of the bench's own process per start (the receiver's connection and codec, no HTTP): what
   * the start itself costs a client, to set against the receiver's CPU per ack.
   */
  clientCpuMsPerStart: { bare: number; deliveryShaped: number };
  /** The ack path with the worker paused (SIGSTOP): the server does nothing but the starts, as for the bare ones. */
  ackWorkerPaused: HttpLoadSummary;
  /**
   * CPU milliseconds per ack of the receiver and of Temporal, with the worker paused, and of the
   * load generator (autocannon, in the bench's process): on 2 cores it takes its share from both.
   */
  cpuMsPerAck: { receiver: number; temporal: number; loadGenerator: number };
  ackWorkerPausedVsTemporal: number;
  /** Each round's paused acks ÷ bare starts (acks/s ÷ starts/s), in order: how far the rounds agree. */
  pausedVsTemporalByRound: number[];
  /**
   * Bare starts through the least HTTP server (bench/bare-http-start.ts: node:http, the bare
   * start), in turns with the rest: its acks ÷ the bare starts are what the HTTP hop through a
   * second process costs here; its process's and Temporal's CPU milliseconds per ack. Null where
   * there is none (the cluster).
   */
  httpStart: {
    load: HttpLoadSummary;
    cpuMsPerAck: number;
    temporalCpuMsPerAck: number;
    vsBareStarts: number;
  } | null;
  /**
   * The ack path's floor (bench/bare-receiver.ts: Koa and a delivery-shaped start, nothing of the
   * receiver's own), in turns with the paused acks; its process's and Temporal's CPU milliseconds
   * per ack; the paused acks ÷ it. Null where there is none (the cluster).
   */
  floor: {
    load: HttpLoadSummary;
    cpuMsPerAck: number;
    temporalCpuMsPerAck: number;
    loadGeneratorCpuMsPerAck: number;
    ackWorkerPausedVsFloor: number;
  } | null;
  ack: HttpLoadSummary;
  ackVsKoa: number;
  ackVsTemporal: number;
  endToEnd: EndToEnd;
}

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
  const { robotId, url } = await benchRobot(api, stack.origin, `bench ${tag}`, 'json', { id: '{{trigger.id}}' });
  const koaUrl = `http://127.0.0.1:${koaPort}${new URL(url).pathname}`;

  log(`${connections} connections: bare Koa for ${s.durationS} s`);
  const bareKoa = (await httpLoad(koaUrl, connections, s.durationS, `koa-${tag}`)).summary;
  const turns = await startsAndPausedAcksInTurns(connections, tag, ctx);
  const { bare, delivery, paused, httpStart, floor } = turns;
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
    bareTemporal: bare.starts,
    deliveryShapedStarts: delivery.starts,
    temporalCpuMsPerStart: { bare: bare.temporalCpuMs, deliveryShaped: delivery.temporalCpuMs },
    postgresqlCpuMs: { bareStart: bare.postgresqlCpuMs, ack: paused.postgresqlCpuMs },
    clientCpuMsPerStart: { bare: bare.ownCpuMs, deliveryShaped: delivery.ownCpuMs },
    ackWorkerPaused: paused.load,
    cpuMsPerAck: { receiver: paused.ownCpuMs, temporal: paused.temporalCpuMs, loadGenerator: paused.benchCpuMs },
    ackWorkerPausedVsTemporal: round(paused.load.perSec / Math.max(1, bare.starts.perSec), 3),
    pausedVsTemporalByRound: turns.pausedVsTemporalByRound,
    httpStart: httpStart && {
      load: httpStart.load,
      cpuMsPerAck: httpStart.ownCpuMs,
      temporalCpuMsPerAck: httpStart.temporalCpuMs,
      vsBareStarts: round(httpStart.load.perSec / Math.max(1, bare.starts.perSec), 3),
    },
    floor: floor && {
      load: floor.load,
      cpuMsPerAck: floor.ownCpuMs,
      temporalCpuMsPerAck: floor.temporalCpuMs,
      loadGeneratorCpuMsPerAck: floor.benchCpuMs,
      ackWorkerPausedVsFloor: round(paused.load.perSec / Math.max(1, floor.load.perSec), 3),
    },
    ack: ack.summary,
    ackVsKoa: round(ack.summary.perSec / Math.max(1, bareKoa.perSec), 3),
    ackVsTemporal: round(ack.summary.perSec / Math.max(1, bare.starts.perSec), 3),
    endToEnd: e2e,
  };
}
