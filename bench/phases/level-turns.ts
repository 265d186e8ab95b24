/**
 * A level's bare and delivery-shaped starts, paused acks, bare starts through node:http and floor,
 * measured in turns with the worker paused throughout: BENCH_LEVEL_ROUNDS rounds of
 * BENCH_DURATION_S ÷ rounds each, the order reversed every other round. Measured one after the
 * other, each 20 s, the later ones paid for a store the earlier ones had grown: Temporal's CPU per
 * start rose by about half over 35,000 starts (2026-11-27), so the paused acks, measured after the
 * starts, were compared with a cheaper engine than they had.
 */
import { waitFor } from '../../src/launch/os/wait';
import { benchRobot, completions, type BenchContext } from '../context';
import {
  httpLoad,
  percentiles,
  temporalStarts,
  type HttpLoad,
  type HttpLoadSummary,
  type StartRate,
  type StartRateSummary,
  type StartShape,
} from '../load';
import { childrenRunning, cpuSecondsOf, msPer, stackCpuSeconds } from '../processes';
import { log, round } from '../util';

/**
 * The bare Koa baseline's port, and where there are (not on the cluster) the bare starts through
 * node:http (bench/bare-http-start.ts) and the ack path's floor (bench/bare-receiver.ts).
 */
export type LevelContext = BenchContext & {
  koaPort: number;
  httpStart?: { port: number; pid: number };
  floor?: { port: number; pid: number };
};

/**
 * A load measured in turns: what it did in all its turns, and the CPU it cost Temporal, its own
 * process and the bench's (for the acks, the load generator, autocannon).
 */
interface TurnLoad {
  done: number;
  seconds: number;
  latencies: number[];
  temporalS: number;
  /** The cluster's PostgreSQL (none on the dev server, whose SQLite is in its own process). */
  postgresqlS: number;
  ownS: number;
  benchS: number;
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
  postgresqlS: 0,
  ownS: 0,
  benchS: 0,
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
 * The bare and delivery-shaped starts, the paused acks, the bare starts through node:http and the
 * floor, in turns (see the module's comment), with the stack's workers stopped (SIGSTOP) so that
 * the server only takes starts; then the workers go on (SIGCONT) and the paused acks' runs are
 * drained before the next phase.
 */
export async function startsAndPausedAcksInTurns(connections: number, tag: string, ctx: LevelContext) {
  const { api, stack, temporal, s, httpStart: httpStartProcess, floor: floorProcess } = ctx;
  const { url } = await benchRobot(api, stack.origin, `bench ${tag} worker paused`, 'json', { id: '{{trigger.id}}' });
  const turnS = s.durationS / s.levelRounds;
  const starts = async (shape: StartShape, r: number) =>
    fromStarts(
      await temporalStarts(
        temporal,
        'bench-nobody-polls',
        connections,
        turnS,
        `bench-noop-${shape}-${tag}-${r}`,
        shape,
      ),
    );
  const paced = async (to: string, prefix: string) => fromHttp(await httpLoad(to, connections, turnS, prefix));
  // The bench's own process for the starts (its client); for the acks, the process that answers them.
  const benchCpu = () => cpuSecondsOf(process.pid);
  const receiverCpu = () => stackCpuSeconds(stack.pid).receiver;
  type Turn = { name: string; load: TurnLoad; ownCpu: () => number; run: (r: number) => Promise<TurnResult> };
  /** A turn of HTTP load on a baseline's process (bench/stack.ts's startBaseline), at the webhook's path. */
  const baselineTurn = (name: string, baseline: { port: number; pid: number }, prefix: string): Turn => ({
    name,
    load: noTurnYet(),
    ownCpu: () => cpuSecondsOf(baseline.pid),
    run: (r) => paced(`http://127.0.0.1:${baseline.port}${new URL(url).pathname}`, `${prefix}-${tag}-${r}`),
  });
  /** A turn of starts from the bench's own client. */
  const startsTurn = (name: string, shape: StartShape): Turn => ({
    name,
    load: noTurnYet(),
    ownCpu: benchCpu,
    run: (r) => starts(shape, r),
  });
  const bareTurn = startsTurn('bare Temporal starts', 'bare');
  const deliveryTurn = startsTurn('delivery-shaped Temporal starts', 'delivery');
  const pausedTurn: Turn = {
    name: 'ack path with the worker paused',
    load: noTurnYet(),
    ownCpu: receiverCpu,
    run: (r) => paced(url, `paused-${tag}-${r}`),
  };
  const httpStartTurn =
    httpStartProcess && baselineTurn('bare starts through node:http', httpStartProcess, 'http-start');
  const floorTurn =
    floorProcess && baselineTurn("ack path's floor (Koa and a delivery's start)", floorProcess, 'floor');
  const turns = [bareTurn, deliveryTurn, pausedTurn, httpStartTurn, floorTurn].filter((t): t is Turn => !!t);
  const deliveries = completions(temporal, 'deliveryWorkflow');
  await deliveries.start();
  const workers = childrenRunning(stack.pid, 'entry/worker.js');
  if (workers.length === 0) throw new Error('no worker process is running');
  for (const worker of workers) process.kill(worker, 'SIGSTOP');
  try {
    for (let r = 0; r < s.levelRounds; r++) {
      for (const turn of r % 2 ? [...turns].reverse() : turns) {
        log(`${connections} connections, round ${r + 1} of ${s.levelRounds}: ${turn.name} for ${round(turnS, 1)} s`);
        const { temporal, postgresql } = stackCpuSeconds(stack.pid);
        const before = { temporal, postgresql, own: turn.ownCpu(), bench: benchCpu() };
        const result = await turn.run(r);
        const { load } = turn;
        const after = stackCpuSeconds(stack.pid);
        load.temporalS += after.temporal - before.temporal;
        load.postgresqlS += after.postgresql - before.postgresql;
        load.ownS += turn.ownCpu() - before.own;
        load.benchS += benchCpu() - before.bench;
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
  const [bare, delivery, paused] = [bareTurn, deliveryTurn, pausedTurn].map((t) => t.load);
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
  const cpu = (l: TurnLoad) => ({
    temporalCpuMs: msPer(l.temporalS, l.done, 3),
    postgresqlCpuMs: msPer(l.postgresqlS, l.done, 3),
    ownCpuMs: msPer(l.ownS, l.done, 3),
    benchCpuMs: msPer(l.benchS, l.done, 3),
  });
  const acksOf = (l: TurnLoad) => ({ load: httpOf(l), ...cpu(l) });
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
    paused: acksOf(paused),
    httpStart: httpStartTurn ? acksOf(httpStartTurn.load) : null,
    floor: floorTurn ? acksOf(floorTurn.load) : null,
    pausedVsTemporalByRound: paused.perSecByRound.map((p, i) => round(p / Math.max(1, bare.perSecByRound[i]), 3)),
  };
}
