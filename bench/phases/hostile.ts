/**
 * Hostile load (docs/security.md): ordinary senders' ack rate and p99, and an ordinary robot's run
 * latency, while one robot's URL takes the worst CSV the stack's caps allow (its CSV_MAX_ROWS rows,
 * its whole FANOUT_ROWS_PER_HOUR, fanning out) and ten slow uploads (each announcing
 * MAX_BODY_BYTES, sending a byte now and then), as a ratio of the same alone on the same stack,
 * measured one after the other in this run.
 */
import http from 'node:http';
import { waitFor } from '../../src/launch/os/wait';
import { benchRobot, completions, type BenchContext } from '../context';
import { httpLoad, percentiles, type HttpLoadSummary, type Percentiles } from '../load';
import { log, round, sleep } from '../util';

/** Slow uploads held open on one URL. */
const SLOW_UPLOADS = 10;
/** How often each slow upload sends a byte: far within BODY_IDLE_TIMEOUT_MS (30 s). */
const TRICKLE_MS = 5000;
/** The largest body a sender may announce (MAX_BODY_BYTES' default). */
const ANNOUNCED_BYTES = 32 * 1024 * 1024;
/** An ordinary robot's deliveries, one this often: a steady sender whose runs' latency is measured. */
const PACE_MS = 200;

/** An ordinary robot's runs: from when each delivery was sent to when its run finished. */
export interface RunLatency {
  runs: number;
  latencyMs: Percentiles;
}

export interface HostileResult {
  connections: number;
  csvRows: number;
  slowUploads: number;
  alone: HttpLoadSummary;
  underAttack: HttpLoadSummary;
  /** Acks per second under attack ÷ alone. */
  ackRatio: number;
  /** p99 ack latency under attack ÷ alone. */
  p99Ratio: number;
  /** Runs of the hostile CSV finished while the senders were measured under attack: it was fanning out. */
  csvRunsDuringLoad: number;
  /** Slow uploads still open when the measurement ended (none was refused or timed out). */
  slowUploadsOpenAtEnd: number;
  /** A steady sender's runs, alone and while the CSV fans out, and the p50 and p99 under attack ÷ alone. */
  runsAlone: RunLatency;
  runsUnderAttack: RunLatency;
  runP50Ratio: number;
  runP99Ratio: number;
}

/** Runs finished (succeeded or failed) of a robot, from its counts. */
async function finishedRuns({ api }: BenchContext, robotId: string): Promise<number> {
  const runCounts = (await api.call('getRobot', { params: { id: robotId } })).runCounts!;
  return runCounts.succeeded + runCounts.failed;
}

/**
 * One delivery every PACE_MS to the robot for `durationS`, then each run's latency: its finish (as
 * the run history has it) less when its delivery was sent, both on this machine's clock.
 */
async function pacedRunLatency(ctx: BenchContext, robot: { robotId: string; url: string }): Promise<RunLatency> {
  const { api, s } = ctx;
  const sentAt: number[] = [];
  const until = Date.now() + s.durationS * 1000;
  while (Date.now() < until) {
    const n = sentAt.length;
    sentAt.push(Date.now());
    const res = await fetch(robot.url, { method: 'POST', body: JSON.stringify({ n }) });
    if (res.status !== 200) throw new Error(`a paced delivery was answered ${res.status}`);
    await sleep(Math.max(0, sentAt[n] + PACE_MS - Date.now()));
  }
  const runs = await waitFor(
    async () => (await api.call('listRuns', { params: { id: robot.robotId }, query: { limit: 1000 } })).runs,
    (r) => r.length >= sentAt.length && r.every((x) => x.finishedAt !== null),
    s.drainTimeoutS * 1000,
    { intervalMs: s.pollS * 1000 },
  );
  // Each run's trigger is the paced delivery's body, `{ n }`.
  const nOf = (r: (typeof runs)[number]) => Number((r.trigger as { n: string }).n);
  const ours = runs.filter((r) => nOf(r) < sentAt.length);
  const latencies = ours.map((r) => Date.parse(r.finishedAt!) - sentAt[nOf(r)]);
  return { runs: ours.length, latencyMs: percentiles(latencies) };
}

/** Ten requests announcing the largest body and sending a byte every TRICKLE_MS until stopped. */
function slowUploads(url: string): { open(): number; stop(): void } {
  let open = 0;
  const requests = Array.from({ length: SLOW_UPLOADS }, () => {
    const req = http.request(url, { method: 'POST', headers: { 'content-length': String(ANNOUNCED_BYTES) } });
    open++;
    req.on('error', () => undefined);
    req.on('close', () => open--);
    req.on('response', (res) => res.resume());
    req.write('x');
    return req;
  });
  const trickle = setInterval(() => requests.forEach((r) => r.write('x')), TRICKLE_MS);
  return {
    open: () => open,
    stop() {
      clearInterval(trickle);
      requests.forEach((r) => r.destroy());
    },
  };
}

export async function hostileLoad(ctx: BenchContext, connections: number, csvRows: number): Promise<HostileResult> {
  const { api, stack, temporal, s } = ctx;
  const ordinary = await benchRobot(api, stack.origin, 'bench hostile: ordinary senders', 'json', {
    id: '{{trigger.id}}',
  });
  const bulk = await benchRobot(api, stack.origin, 'bench hostile: worst CSV', 'csv', { n: '{{trigger.n}}' });
  const steady = () => benchRobot(api, stack.origin, 'bench hostile: a steady sender', 'json', { n: '{{trigger.n}}' });

  log(`hostile: a steady sender alone (a delivery every ${PACE_MS} ms for ${s.durationS} s)`);
  const runsAlone = await pacedRunLatency(ctx, await steady());

  log(`hostile: ${connections} ordinary senders alone for ${s.durationS} s`);
  const deliveries = completions(temporal, 'deliveryWorkflow');
  await deliveries.start();
  const alone = await httpLoad(ordinary.url, connections, s.durationS, 'hostile-alone');
  await waitFor(
    () => deliveries.sinceStart(),
    (n) => n >= alone.summary.ok,
    s.drainTimeoutS * 1000,
    { intervalMs: s.pollS * 1000 },
  );

  log(`hostile: the worst allowed CSV (${csvRows} rows) to one URL, waiting for its fan-out`);
  const body = `n\n${Array.from({ length: csvRows }, (_, i) => i).join('\n')}\n`;
  const sent = await fetch(bulk.url, { method: 'POST', body });
  if (sent.status !== 200) throw new Error(`the hostile CSV was answered ${sent.status}`);
  await waitFor(
    () => finishedRuns(ctx, bulk.robotId),
    (n) => n > 0,
    s.csvTimeoutS * 1000,
    { intervalMs: s.pollS * 1000 },
  );
  log(
    `hostile: ${SLOW_UPLOADS} slow uploads on that URL too, a steady sender, then the same senders for ${s.durationS} s`,
  );
  const uploads = slowUploads(bulk.url);
  let underAttack: Awaited<ReturnType<typeof httpLoad>>;
  let csvRunsDuringLoad: number;
  let slowUploadsOpenAtEnd: number;
  let runsUnderAttack: RunLatency;
  try {
    runsUnderAttack = await pacedRunLatency(ctx, await steady());
    const before = await finishedRuns(ctx, bulk.robotId);
    underAttack = await httpLoad(ordinary.url, connections, s.durationS, 'hostile-attacked');
    csvRunsDuringLoad = (await finishedRuns(ctx, bulk.robotId)) - before;
    slowUploadsOpenAtEnd = uploads.open();
  } finally {
    uploads.stop();
  }
  return {
    connections,
    csvRows,
    slowUploads: SLOW_UPLOADS,
    alone: alone.summary,
    underAttack: underAttack.summary,
    ackRatio: round(underAttack.summary.perSec / Math.max(1, alone.summary.perSec), 3),
    p99Ratio: round(underAttack.summary.latencyMs.p99 / Math.max(0.01, alone.summary.latencyMs.p99), 2),
    csvRunsDuringLoad,
    slowUploadsOpenAtEnd,
    runsAlone,
    runsUnderAttack,
    runP50Ratio: round(runsUnderAttack.latencyMs.p50 / Math.max(0.01, runsAlone.latencyMs.p50), 2),
    runP99Ratio: round(runsUnderAttack.latencyMs.p99 / Math.max(0.01, runsAlone.latencyMs.p99), 2),
  };
}
