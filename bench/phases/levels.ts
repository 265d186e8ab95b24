/**
 * One concurrency level: the bare Koa and bare Temporal baselines, the ack path with the worker
 * paused and with it running, and end to end from each delivery's 200 to its run's outcome.
 *
 * The bare and delivery-shaped starts, the paused acks and the floor are measured in turns, with
 * the worker paused throughout: BENCH_LEVEL_ROUNDS rounds of BENCH_DURATION_S ÷ rounds each, the
 * order reversed every other round. Measured one after the other, each 20 s, the later ones paid
 * for a store the earlier ones had grown: Temporal's CPU per start rose by about half over 35,000
 * starts (2026-11-27), so the paused acks, measured after the starts, were compared with a cheaper
 * engine than they had.
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
  type StartRate,
  type StartRateSummary,
  type StartShape,
} from '../load';
import { childrenRunning, cpuSecondsOf, msPer, stackCpuSeconds } from '../processes';
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
  /** Each round's paused acks ÷ bare starts (acks/s ÷ starts/s), in order: how far the rounds agree. */
  pausedVsTemporalByRound: number[];
  /**
   * The ack path's floor (bench/bare-receiver.ts: Koa and a delivery-shaped start, nothing of the
   * receiver's own), in turns with the paused acks; its process's and Temporal's CPU milliseconds
   * per ack; the paused acks ÷ it. Null where there is none (the cluster).
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
  const turns = await startsAndPausedAcksInTurns(connections, tag, ctx);
  const { bare, delivery, paused, floor } = turns;
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
    clientCpuMsPerStart: { bare: bare.ownCpuMs, deliveryShaped: delivery.ownCpuMs },
    ackWorkerPaused: paused.load,
    cpuMsPerAck: { receiver: paused.ownCpuMs, temporal: paused.temporalCpuMs },
    ackWorkerPausedVsTemporal: round(paused.load.perSec / Math.max(1, bare.starts.perSec), 3),
    pausedVsTemporalByRound: turns.pausedVsTemporalByRound,
    floor: floor && {
      load: floor.load,
      cpuMsPerAck: floor.ownCpuMs,
      temporalCpuMsPerAck: floor.temporalCpuMs,
      ackWorkerPausedVsFloor: round(paused.load.perSec / Math.max(1, floor.load.perSec), 3),
    },
    ack: ack.summary,
    ackVsKoa: round(ack.summary.perSec / Math.max(1, bareKoa.perSec), 3),
    ackVsTemporal: round(ack.summary.perSec / Math.max(1, bare.starts.perSec), 3),
    endToEnd: e2e,
  };
}

/** A load measured in turns: what it did in all its turns, and the CPU it cost Temporal and its own process. */
interface TurnLoad {
  done: number;
  seconds: number;
  latencies: number[];
  temporalS: number;
  ownS: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  lastError: string | null;
  /** Per second, in each round. */
  perSecByRound: number[];
}

const noTurnYet = (): TurnLoad => ({
  done: 0,
  seconds: 0,
  latencies: [],
  temporalS: 0,
  ownS: 0,
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  lastError: null,
  perSecByRound: [],
});

/** What one turn did: its count, its seconds, its latencies and its failures. */
type TurnResult = Pick<TurnLoad, 'done' | 'seconds' | 'latencies' | 'non2xx' | 'errors' | 'timeouts' | 'lastError'>;

const fromHttp = ({ summary, latencies }: HttpLoad): TurnResult => ({
  ...summary,
  done: summary.ok,
  seconds: summary.durationS,
  latencies,
  lastError: null,
});
const fromStarts = ({ summary, latencies }: StartRate): TurnResult => ({
  ...summary,
  done: summary.started,
  seconds: summary.durationS,
  latencies,
  non2xx: 0,
  timeouts: 0,
});

/**
 * The bare and delivery-shaped starts, the paused acks and the floor, in turns (see the module's
 * comment), with the stack's workers stopped (SIGSTOP) so that the server only takes starts; then
 * the workers go on (SIGCONT) and the paused acks' runs are drained before the next phase.
 */
async function startsAndPausedAcksInTurns(connections: number, tag: string, ctx: LevelContext) {
  const { api, stack, temporal, s, floor: floorProcess } = ctx;
  const { url } = await benchRobot(api, stack.port, `bench ${tag} worker paused`, 'json', { id: '{{trigger.id}}' });
  const turnS = s.durationS / s.levelRounds;
  const starts = (shape: StartShape, round: number) => async () =>
    fromStarts(
      await temporalStarts(
        temporal,
        'bench-nobody-polls',
        connections,
        turnS,
        `bench-noop-${shape}-${tag}-${round}`,
        shape,
      ),
    );
  const receiverCpu = () => stackCpuSeconds(stack.pid).receiver;
  const clientCpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  };
  type Turn = { name: string; load: TurnLoad; ownCpu: () => number; run: (round: number) => () => Promise<TurnResult> };
  const turns: Turn[] = [
    { name: 'bare Temporal starts', load: noTurnYet(), ownCpu: clientCpu, run: (r) => starts('bare', r) },
    {
      name: 'delivery-shaped Temporal starts',
      load: noTurnYet(),
      ownCpu: clientCpu,
      run: (r) => starts('delivery', r),
    },
    {
      name: 'ack path with the worker paused',
      load: noTurnYet(),
      ownCpu: receiverCpu,
      run: (r) => async () => fromHttp(await httpLoad(url, connections, turnS, `paused-${tag}-${r}`)),
    },
  ];
  if (floorProcess) {
    const floorUrl = `http://127.0.0.1:${floorProcess.port}${new URL(url).pathname}`;
    turns.push({
      name: "ack path's floor (Koa and a delivery's start)",
      load: noTurnYet(),
      ownCpu: () => cpuSecondsOf(floorProcess.pid),
      run: (r) => async () => fromHttp(await httpLoad(floorUrl, connections, turnS, `floor-${tag}-${r}`)),
    });
  }
  const deliveries = completions(temporal, 'deliveryWorkflow');
  await deliveries.start();
  const workers = childrenRunning(stack.pid, 'entry/worker.js');
  if (workers.length === 0) throw new Error('no worker process is running');
  for (const worker of workers) process.kill(worker, 'SIGSTOP');
  try {
    for (let r = 0; r < s.levelRounds; r++) {
      for (const turn of r % 2 ? [...turns].reverse() : turns) {
        log(`${connections} connections, round ${r + 1} of ${s.levelRounds}: ${turn.name} for ${round(turnS, 1)} s`);
        const [temporalBefore, ownBefore] = [stackCpuSeconds(stack.pid).temporal, turn.ownCpu()];
        const result = await turn.run(r)();
        const { load } = turn;
        load.temporalS += stackCpuSeconds(stack.pid).temporal - temporalBefore;
        load.ownS += turn.ownCpu() - ownBefore;
        load.done += result.done;
        load.seconds += result.seconds;
        // Not push(...latencies): a long turn's 100,000 arguments would overflow the call stack.
        for (const ms of result.latencies) load.latencies.push(ms);
        load.non2xx += result.non2xx;
        load.errors += result.errors;
        load.timeouts += result.timeouts;
        load.lastError = result.lastError ?? load.lastError;
        load.perSecByRound.push(result.done / Math.max(0.001, result.seconds));
      }
    }
  } finally {
    for (const worker of workers) process.kill(worker, 'SIGCONT');
  }
  const [bare, delivery, paused, floor] = turns.map((t) => t.load);
  for (const [shape, load] of [
    ['bare', bare],
    ['delivery-shaped', delivery],
  ] as const)
    if (load.done === 0) throw new Error(`no ${shape} workflow start succeeded: ${load.lastError}`);
  const perSec = (l: TurnLoad) => Math.round(l.done / Math.max(0.001, l.seconds));
  const startsOf = (l: TurnLoad): StartRateSummary => ({
    concurrency: connections,
    durationS: round(l.seconds, 2),
    started: l.done,
    errors: l.errors,
    lastError: l.lastError,
    perSec: perSec(l),
    latencyMs: percentiles(l.latencies),
  });
  const httpOf = (l: TurnLoad): HttpLoadSummary => ({
    connections,
    durationS: round(l.seconds, 2),
    ok: l.done,
    non2xx: l.non2xx,
    errors: l.errors,
    timeouts: l.timeouts,
    perSec: perSec(l),
    latencyMs: percentiles(l.latencies),
  });
  const cpu = (l: TurnLoad) => ({ temporalCpuMs: msPer(l.temporalS, l.done, 3), ownCpuMs: msPer(l.ownS, l.done, 3) });
  log(`${connections} connections: worker resumed, draining the ${paused.done} runs of the paused acks`);
  await waitFor(
    () => deliveries.sinceStart(),
    (finished) => finished >= paused.done,
    s.drainTimeoutS * 1000,
    {
      intervalMs: s.pollS * 1000,
      message: (finished) =>
        `only ${finished} of the ${paused.done} runs of the paused acks finished (BENCH_DRAIN_TIMEOUT_S) ` +
        `within ${s.drainTimeoutS} s`,
    },
  );
  return {
    bare: { starts: startsOf(bare), ...cpu(bare) },
    delivery: { starts: startsOf(delivery), ...cpu(delivery) },
    paused: { load: httpOf(paused), ...cpu(paused) },
    floor: floor ? { load: httpOf(floor), ...cpu(floor) } : null,
    pausedVsTemporalByRound: paused.perSecByRound.map((p, i) => round(p / Math.max(1, bare.perSecByRound[i]), 3)),
  };
}
