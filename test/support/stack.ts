/**
 * One test file's service: the real receiver (the Koa app on an ephemeral port) and a real
 * worker, in this process, against the servers of global-setup.ts. Each stack has its own
 * database, task queue and data folder, so test files never see each other's data.
 */
import { Runtime } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/core/config';
import { createLogger, type LogLevel } from '../../src/core/log';
import { receiverMetrics, workerMetrics, type ReceiverMetrics, type WorkerMetrics } from '../../src/core/metrics';
import { sdkLogger } from '../../src/temporal/sdk-log';
import { freePort } from '../../src/launch/os/ports';
import { apiClient, robotAtWork, type ApiClient, type RobotAtWork, type RobotSpec } from '../../src/client/api-client';
import { connectDatabase } from '../../src/storage/connect';
import type { Models } from '../../src/storage/models';
import { startReceiver, startWorker as startWorkerProcess, type WorkerProcess } from '../../src/runtime/processes';
import { HeardOutcomes } from '../../src/history/heard-outcomes';
import { indexFerretDb } from '../../src/launch/servers/ferretdb-index';
import type { Client } from '@temporalio/client';
import type { Connection } from 'mongoose';
import type { WorkerHealth } from '../../src/runtime/worker-metrics-port';

/** The same MongoDB URI with another database name. */
export function withDatabase(uri: string, name: string): string {
  const m = /^(mongodb(?:\+srv)?:\/\/[^/?]+)\/?([^?]*)(\?.*)?$/.exec(uri);
  if (!m) throw new Error(`not a MongoDB URI: ${uri}`);
  return `${m[1]}/${name}${m[3] ?? ''}`;
}

export interface Stack {
  config: Config;
  baseUrl: string;
  /** The receiver's metrics port: `GET /metrics` and `GET /healthz`. */
  metricsUrl: string;
  models: Models;
  db: Connection;
  temporal: Client;
  /** The receiver's and the worker's metrics, and where the SDK's exporter of this process answers. */
  metrics: { receiver: ReceiverMetrics; worker: WorkerMetrics; sdkUrl: string };
  /** Outcomes of runs that ended in this stack's worker, as its history keeper hears them. */
  heard: HeardOutcomes;
  /** The management API with the admin token (src/client/api-client.ts). */
  client: ApiClient;
  /** A management API call with the admin token; returns status and parsed JSON body (`client.request`). */
  api: ApiClient['request'];
  /** Sends a raw request (a webhook delivery); returns status, headers and the body as text. */
  send(
    method: string,
    url: string,
    body?: string | Buffer,
    headers?: Record<string, string>,
  ): Promise<{ status: number; headers: Headers; text: string }>;
  /** A robot's newest runs (one page of up to 1000) and deliveries, through the API. */
  runs(robotId: string): Promise<any[]>;
  deliveries(robotId: string): Promise<any[]>;
  /** Starts a robot with one compose step on a new custom app; returns its ids and webhook URL. */
  robotAtWork(opts?: { bodyFormat?: string; template?: RobotSpec['template'] }): Promise<RobotAtWork>;
  /** Another receiver on the same database and Temporal, with its own client and trigger cache. */
  addReceiver(): Promise<string>;
  /** The same, closed by the test (`close`, as on SIGTERM) rather than with the stack. */
  startReceiver(): Promise<{ url: string; close(): Promise<void> }>;
  stopWorker(): Promise<void>;
  startWorker(): Promise<void>;
  /** What the worker's metrics port would answer on `GET /healthz` (src/runtime/worker-metrics-port.ts). */
  workerHealth(): Promise<WorkerHealth>;
  close(): Promise<void>;
}

let sdkMetricsUrl: string | undefined;
/** Where the stacks of this process log (stderr unless installTestRuntime was given another). */
let logDestination: NodeJS.WritableStream | undefined;

/**
 * The Temporal SDK's runtime of this test process, installed once: its log lines through the
 * service's logger (src/temporal/sdk-log.ts) at `logLevel` into `destination`, and its Prometheus exporter
 * on a free loopback port. A test file that wants other than the defaults calls it first.
 */
export async function installTestRuntime(
  opts: { logLevel?: LogLevel; destination?: NodeJS.WritableStream } = {},
): Promise<string> {
  if (sdkMetricsUrl) return sdkMetricsUrl;
  logDestination = opts.destination;
  const address = `127.0.0.1:${await freePort()}`;
  const log = createLogger('worker', opts.logLevel ?? 'warn', { format: 'json', destination: opts.destination });
  Runtime.install({ logger: sdkLogger(log), telemetryOptions: { metrics: { prometheus: { bindAddress: address } } } });
  sdkMetricsUrl = `http://${address}/metrics`;
  return sdkMetricsUrl;
}

export async function startStack(
  env: Record<string, string> = {},
  { worker: withWorker = true }: { worker?: boolean } = {},
): Promise<Stack> {
  const sdkMetrics = await installTestRuntime();
  const name = `t${randomBytes(5).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `webhooks-${name}-`));
  const port = await freePort();
  const config = loadConfig({
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    MONGODB_URI: withDatabase(process.env.MONGODB_URI!, name),
    TEMPORAL_TASK_QUEUE: `test-${name}`,
    LOG_LEVEL: 'warn',
    ...env,
  });
  const log = createLogger('receiver', config.logLevel, { format: 'json', destination: logDestination });
  const { db, models } = await connectDatabase(config.mongodbUri!);
  const metrics = { receiver: receiverMetrics(), worker: workerMetrics(), sdkUrl: sdkMetrics };
  // The receiver production runs (src/runtime/processes.ts), on loopback; its metrics port on any free
  // port, unless the test names one (the Web UI's codec endpoint, served there, names its port).
  const receiver = await startReceiver(config, { db, models }, log, {
    metrics: metrics.receiver,
    listen: { host: '127.0.0.1', metricsPort: env.RECEIVER_METRICS_PORT ? config.receiverMetricsPort : 0 },
  });
  const { temporal, listening } = receiver;
  const extra: Array<{ close(): Promise<void> }> = [];

  // The embedded FerretDB's lookups by `_id` use the index its launcher adds (docs/storage.md).
  const { FERRETDB_SQLITE_DIR: ferretDir, SQLITE_TUNE_BIN: indexBin } = process.env;
  const database = new URL(config.mongodbUri!).pathname.slice(1); // the stack's own, or one it was given
  if (ferretDir && indexBin) await indexFerretDb(indexBin, path.join(ferretDir, `${database}.sqlite`));
  let worker: WorkerProcess | undefined;
  const heard = new HeardOutcomes();
  const startWorker = async () => {
    worker = await startWorkerProcess(config, models, log, {
      metrics: metrics.worker,
      heard,
      workflowBundlePath: process.env.TEST_WORKFLOW_BUNDLE,
    });
    void worker.run();
  };
  const stopWorker = async () => {
    const w = worker;
    worker = undefined;
    await w?.stop();
  };
  if (withWorker) await startWorker();

  const anotherReceiver = async () => {
    const other = await startReceiver(config, { db, models }, log, {
      listen: { host: '127.0.0.1', port: await freePort(), metricsPort: null },
    });
    return { url: `http://127.0.0.1:${other.listening.port}`, close: () => other.close() };
  };
  const baseUrl = config.baseUrl;
  const send: Stack['send'] = async (method, url, body, headers = {}) => {
    const res = await fetch(url, { method, body, headers });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const client = apiClient(baseUrl, config.adminToken);
  const api = client.request;

  return {
    config,
    baseUrl,
    metricsUrl: `http://127.0.0.1:${listening.metricsPort}`,
    metrics,
    heard,
    models,
    db,
    temporal,
    client,
    api,
    send,
    // The run history lists summaries; each run is read whole, as a test wants its steps, 16 at a
    // time: the receiver closes connections past MAX_CONNECTIONS_PER_ADDRESS (256) from one address,
    // which one request per run of a large CSV, all at once, opened.
    runs: async (robotId) => {
      const { body } = await api('GET', `/api/robots/${robotId}/runs?limit=1000`);
      const ids = (body.runs as Array<{ id: string }>).map((r) => r.id);
      const runs: unknown[] = [];
      for (let i = 0; i < ids.length; i += 16) {
        const batch = ids.slice(i, i + 16).map(async (id) => (await api('GET', `/api/runs/${id}`)).body);
        runs.push(...(await Promise.all(batch)));
      }
      return runs;
    },
    deliveries: (robotId) => api('GET', `/api/robots/${robotId}/deliveries?limit=1000`).then((r) => r.body.deliveries),
    robotAtWork: ({ bodyFormat = 'json', template = { data: '{{trigger}}' } } = {}) =>
      robotAtWork(client, {
        bodyFormat: bodyFormat as RobotSpec['bodyFormat'],
        template,
        appName: 'App',
        robotName: 'Robot',
        stepName: 'compose',
      }),
    startReceiver: anotherReceiver,
    async addReceiver() {
      const other = await anotherReceiver();
      extra.push(other);
      return other.url;
    },
    startWorker,
    stopWorker,
    workerHealth: () => worker?.health() ?? Promise.resolve({ worker: 'stopped' }),
    async close() {
      await stopWorker();
      for (const e of extra) await e.close();
      await receiver.close();
      await db.dropDatabase().catch(() => undefined);
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
