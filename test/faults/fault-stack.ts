/**
 * A whole service whose every part can be stopped, killed and started again: its own Temporal
 * dev server (on a SQLite file, so it keeps its data across a restart), its own FerretDB, and
 * the receiver and worker as separate processes, all on free loopback ports.
 */
import { DELIVERY_OUTCOMES } from '../../src/domain/types';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitForPort } from '../../src/launch/os/managed-process';
import { freePort } from '../../src/launch/os/ports';
import { binariesFromEnv, mongodbBackEnd, temporalBackEnd, type StopSignal } from '../../src/launch/back-ends';
import { exited, startProcess } from '../../src/launch/os/child-processes';
import { waitFor } from '../../src/launch/os/wait';
import { allPages, apiClient, robotAtWork, type ApiClient } from '../../src/client/api-client';

type Part = 'temporal' | 'mongodb' | 'receiver' | 'worker';

export interface FaultStack {
  baseUrl: string;
  /** The receiver's metrics port (GET /metrics, /healthz). */
  metricsUrl: string;
  dataDir: string;
  /** The management API with the admin token (src/client/api-client.ts). */
  client: ApiClient;
  /** Management API call with the admin token: the body of a 2xx answer, and fails on any other. */
  api: ApiClient['json'];
  robotAtWork(bodyFormat?: string): Promise<{ robotId: string; webhookUrl: string }>;
  /** Starts a part again, on its ports and (the servers) its files; FerretDB's start prepares its store. */
  start(part: Part): Promise<void>;
  /** SIGTERM (a clean stop) or SIGKILL. */
  stop(part: Part, signal?: StopSignal): Promise<void>;
  /** How the receiver's or the worker's process (as last started) exited: null while it runs. */
  exitOf(part: 'receiver' | 'worker'): { code: number | null; signal: string | null } | null;
  /** Counts of a robot's deliveries, runs and finished runs, read through the API. */
  counts(
    robotId: string,
  ): Promise<{ deliveries: number; duplicates: number; runs: number; succeeded: number; failed: number }>;
  /** Everything every process of the stack has logged so far. */
  logs(): string;
  close(): Promise<void>;
}

/** Settings of the worker's process only (its heap's size, what it prepares at once). */
export async function startFaultStack({ workerEnv = {} }: { workerEnv?: NodeJS.ProcessEnv } = {}): Promise<FaultStack> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhooks-faults-'));
  const ports = { http: await freePort(), metrics: await freePort(), workerMetrics: await freePort() };
  // The servers as the embedded launcher starts them (src/launch/back-ends.ts), each on its own.
  const embedded = { binary: binariesFromEnv('npm run test:faults'), dataDir, logDir: dataDir };
  const servers = {
    temporal: temporalBackEnd({ ...embedded, port: await freePort(), namespace: 'default' }),
    mongodb: mongodbBackEnd(embedded),
  };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(ports.http),
    RECEIVER_METRICS_PORT: String(ports.metrics),
    DATA_DIR: dataDir,
    TEMPORAL_ADDRESS: servers.temporal.address,
    MONGODB_URI: servers.mongodb.uri,
    TEMPORAL_START_TIMEOUT_MS: '3000',
    WORKER_METRICS_PORT: String(ports.workerMetrics),
    SDK_METRICS_PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
  };
  const running: Partial<Record<'receiver' | 'worker', ChildProcess>> = {};
  const log = (name: string) => path.join(dataDir, `${name}.log`);

  /**
   * The port a process opens once it is ready. The worker's metrics port opens once the worker is
   * made (connected, its namespace checked): a test that stops Temporal right after must not catch
   * it still starting, when it exits (under a supervisor, as in production, it is started again).
   */
  const readyPort = { receiver: ports.http, worker: ports.workerMetrics };

  async function start(part: Part): Promise<void> {
    if (part === 'temporal' || part === 'mongodb') return servers[part].start();
    const child = startProcess(part, part === 'worker' ? { ...env, ...workerEnv } : env, log(part));
    running[part] = child;
    await waitForPort(readyPort[part], { name: part, child });
  }

  async function stop(part: Part, signal: StopSignal = 'SIGTERM'): Promise<void> {
    if (part === 'temporal' || part === 'mongodb') return servers[part].stop(signal);
    const child = running[part];
    delete running[part];
    if (!child) return;
    child.kill(signal);
    await exited(child);
  }

  async function close(): Promise<void> {
    for (const part of ['receiver', 'worker', 'mongodb', 'temporal'] as const) await stop(part, 'SIGKILL');
    // FAULTS_KEEP_DATA=1 keeps the servers' files and the processes' logs for a post-mortem.
    if (process.env.FAULTS_KEEP_DATA !== '1') fs.rmSync(dataDir, { recursive: true, force: true });
  }

  try {
    for (const part of ['temporal', 'mongodb', 'receiver', 'worker'] as const) await start(part);
    // The receiver writes the admin token before it listens: its port open means it is there.
    fs.accessSync(path.join(dataDir, 'admin-token'));
  } catch (err) {
    // Nothing started is left running (a jest run that never ends), whatever step failed.
    const logs = fs.existsSync(dataDir) ? fs.readdirSync(dataDir).filter((f) => f.endsWith('.log')) : [];
    const tails = logs.map((f) => `--- ${f}\n${fs.readFileSync(path.join(dataDir, f), 'utf8').slice(-2000)}`);
    await close();
    throw new Error(`the fault stack did not start: ${(err as Error).message}\n${tails.join('\n')}`, { cause: err });
  }
  const baseUrl = `http://127.0.0.1:${ports.http}`;
  return {
    ...stackApi(baseUrl, fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim()),
    baseUrl,
    metricsUrl: `http://127.0.0.1:${ports.metrics}`,
    dataDir,
    logs: () =>
      fs
        .readdirSync(dataDir)
        .filter((f) => f.endsWith('.log'))
        .map((f) => fs.readFileSync(path.join(dataDir, f), 'utf8'))
        .join('\n'),
    start,
    stop,
    exitOf(part) {
      const child = running[part];
      if (!child || (child.exitCode === null && child.signalCode === null)) return null;
      return { code: child.exitCode, signal: child.signalCode };
    },
    close,
  };
}

/** What the fault and cluster tests ask a running service, through its API, with the admin token. */
export type StackApi = Pick<FaultStack, 'client' | 'api' | 'robotAtWork' | 'counts'>;

export function stackApi(baseUrl: string, adminToken: string): StackApi {
  const client = apiClient(baseUrl, adminToken);
  const api = client.json;
  return {
    client,
    api,
    async robotAtWork(bodyFormat = 'json') {
      const { robotId, webhookUrl } = await robotAtWork(client, {
        bodyFormat,
        template: { id: '{{trigger.id}}' },
        appName: 'A',
        robotName: 'R',
      });
      return { robotId, webhookUrl };
    },
    async counts(robotId) {
      const robot = await api('GET', `/api/robots/${robotId}`);
      // Deliveries taken, repeats apart (a repeat is logged as `duplicate` of one of them).
      const { duplicate = 0, ...taken } = robot.deliveryCounts as Record<string, number>;
      const deliveries = Object.values(taken).reduce((a, b) => a + b, 0);
      return {
        deliveries,
        duplicates: duplicate,
        runs: robot.runCounts.total,
        succeeded: robot.runCounts.succeeded,
        failed: robot.runCounts.failed,
      };
    },
  };
}

/** Every run of a robot, page by page. */
export const allRuns = (stack: StackApi, robotId: string) =>
  allPages<{ id: string; status: string; trigger: any; deliveryId: string }>(
    stack.client,
    `/api/robots/${robotId}/runs`,
  );

export interface SendResult {
  /** Delivery ids (the `id` in each body) that got a 200. */
  accepted: Set<number>;
  statuses: Map<number, number>;
}

/**
 * Sends deliveries `{ id }` for ids in `ids`, `concurrency` at a time. With `retryUntil200`,
 * a sender retries a delivery (same body, so the same dedup key) until it gets a 200, as a
 * webhook sender does; otherwise each delivery is sent once and its answer recorded.
 */
export async function sendDeliveries(
  url: string,
  ids: number[],
  { concurrency = 16, retryUntil200 = false } = {},
): Promise<SendResult> {
  const accepted = new Set<number>();
  const statuses = new Map<number, number>();
  const queue = [...ids];
  const sendOne = async (id: number): Promise<number> => {
    try {
      return (await fetch(url, { method: 'POST', body: JSON.stringify({ id }) })).status;
    } catch {
      return 0; // connection refused or reset: no answer
    }
  };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        let status = await sendOne(id);
        for (let attempt = 1; retryUntil200 && status !== 200; attempt++) {
          if (attempt > 600) throw new Error(`delivery ${id} never got a 200 (last status ${status})`);
          await new Promise((r) => setTimeout(r, 100)); // a sender's back-off between retries
          status = await sendOne(id);
        }
        statuses.set(id, status);
        if (status === 200) accepted.add(id);
      }
    }),
  );
  return { accepted, statuses };
}

/**
 * Waits until every run has finished and every accepted delivery (a 200) has a run, then checks
 * the runs one by one: exactly one run for each accepted delivery, none doubled, and none for a
 * delivery that was never sent. A delivery that got no 200 may have one run (the start can
 * succeed after the receiver gave up waiting): its sender would retry, and the retry is a
 * duplicate. So a count of runs can reach the number accepted while an accepted delivery's run
 * is still to come (an activity whose answer a restart lost is tried again after its timeout):
 * the wait is on the ids themselves.
 */
export async function expectExactlyOneRunEach(
  stack: StackApi,
  robotId: string,
  accepted: Set<number>,
  sent: Set<number> = accepted,
): Promise<void> {
  const runsRead = async (always = false) => {
    const c = await stack.counts(robotId);
    if (!always && (c.succeeded + c.failed < accepted.size || c.runs !== c.succeeded + c.failed)) return { counts: c };
    const runs = await allRuns(stack, robotId);
    const ids = new Set(runs.map((r) => r.trigger.id as number));
    return { counts: c, runs, missing: [...accepted].filter((id) => !ids.has(id)) };
  };
  // Past the wait every accepted delivery has a run: what is left to check is the runs themselves.
  const { runs } = await waitFor(
    () => runsRead(),
    (m): m is Required<typeof m> => m.missing?.length === 0,
    15 * 60_000,
  ).catch(async (err: Error) => {
    // The runs listed are read once more, so that the failure names the deliveries without one.
    const { counts, missing } = await runsRead(true);
    const found = JSON.stringify({ counts, accepted: accepted.size, missing });
    throw new Error(`accepted deliveries without a run: ${found} (${err.message})`, { cause: err });
  });
  const ids = runs.map((r) => r.trigger.id as number);
  const doubled = ids.filter((id, i) => ids.indexOf(id) !== i);
  const unsent = ids.filter((id) => !sent.has(id));
  const notSucceeded = runs.filter((r) => r.status !== 'succeeded').map((r) => r.trigger.id);
  await expectCountsMatchPages(stack, robotId);
  if (doubled.length || unsent.length || notSucceeded.length) {
    throw new Error(`runs do not match deliveries: ${JSON.stringify({ doubled, unsent, notSucceeded })}`);
  }
}

/**
 * The robot's counts equal what its pages list: as many runs as `runCounts.total`, each status as
 * often as its count, and no run or delivery listed twice.
 */
export async function expectCountsMatchPages(stack: StackApi, robotId: string): Promise<void> {
  const robot = await stack.api('GET', `/api/robots/${robotId}`);
  const runs = await allRuns(stack, robotId);
  const deliveries = await allDeliveries(stack, robotId);
  const statuses = { running: 0, succeeded: 0, failed: 0 } as Record<string, number>;
  for (const r of runs) statuses[r.status] += 1;
  expect({ total: runs.length, ...statuses }).toEqual(robot.runCounts);
  expect(new Set(runs.map((r) => r.id)).size).toBe(runs.length);
  expect(new Set(deliveries.map((d) => d.id)).size).toBe(deliveries.length);
  const byOutcome = Object.fromEntries(DELIVERY_OUTCOMES.map((o) => [o, 0])) as Record<string, number>;
  for (const d of deliveries) byOutcome[d.outcome] += 1;
  expect(byOutcome).toEqual(robot.deliveryCounts);
}

/** Every delivery of a robot, page by page. */
export const allDeliveries = (stack: StackApi, robotId: string) =>
  allPages<{ id: string; outcome: string }>(stack.client, `/api/robots/${robotId}/deliveries`);

/**
 * A CSV of `rows` rows, with `interrupt` called once a third of its runs succeeded (it kills and
 * restarts parts of the stack): every row still makes exactly one run, and the counts equal the pages.
 */
export async function expectCsvSurvives(
  stack: StackApi,
  rows: number,
  interrupt: (robotId: string) => Promise<void>,
): Promise<void> {
  const robot = await stack.robotAtWork('csv');
  const csv = ['id', ...range(0, rows)].join('\n');
  expect((await fetch(robot.webhookUrl, { method: 'POST', body: csv })).status).toBe(200);
  await waitFor(
    () => stack.counts(robot.robotId),
    (c) => c.succeeded >= Math.ceil(rows / 3),
    10 * 60_000,
  );
  await interrupt(robot.robotId);
  await waitFor(
    () => stack.counts(robot.robotId),
    (c) => c.succeeded === rows,
    15 * 60_000,
  );
  // One run per row, none doubled (CSV values are text, hence Number).
  const ids = (await allRuns(stack, robot.robotId)).map((r) => Number(r.trigger.id)).sort((a, b) => a - b);
  expect(ids).toEqual(range(0, rows));
  await expectCountsMatchPages(stack, robot.robotId);
}

export const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
