/**
 * The stack under test: the embedded launcher (`dist/src/entry/embedded.js`), or the cluster's
 * (`dist/src/entry/cluster.js`), as a child process on free ports with a fresh data folder, and
 * the bare Koa baseline server. What its processes use is read by ./processes.ts. Ports, entry
 * points and exits come from the runtime (src/runtime/).
 */
import { ferretDbSocket, ferretDbUri } from '../src/launch/servers/dev-servers';
import { devServerSockets } from '../src/launch/servers/dev-namespace';
import { unixAddress } from '../src/temporal/socket-address';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TLSConfig } from '@temporalio/client';
import { clusterClientTls } from '../src/launch/servers/temporal-server';
import { CLUSTER_TLS_SERVER_NAME } from '../src/launch/servers/tls';
import { temporalTls } from '../src/temporal/client';
import { freePorts, freeSpacedPorts } from '../src/launch/os/ports';
import { freeTemporalServerPort } from '../src/launch/servers/temporal-server';
import { descendants, entryPoint, isAlive, stopWithGrace } from '../src/launch/os/child-processes';
import type { Fetch } from '../src/client/operations';
import { commitBinaries } from './build-commit';
import { trustingFetch } from '../src/client/trusting-fetch';

export interface BenchStack {
  /** Resolves once the launcher has printed its banner (everything is up). */
  ready: Promise<void>;
  port: number;
  /**
   * Where senders and the API reach it: the embedded launcher over plain HTTP, the cluster's entry
   * over HTTPS with a certificate of the cluster's own CA (`fetch` trusts it; autocannon checks none).
   */
  origin: string;
  fetch: Fetch;
  adminToken: string;
  mongodbUri: string;
  temporalAddress: string;
  /** The worker's metrics (its first worker's, in the cluster). */
  workerMetricsUrl: string;
  /** The embedded dev server's own Prometheus metrics (EMBEDDED_TEMPORAL_METRICS_PORT); unused on the cluster. */
  temporalMetricsUrl: string;
  /** How to reach its Temporal: the cluster's takes mutual TLS only (its certificates, once ready). */
  temporalTls(): TLSConfig | undefined;
  namespace: string;
  dataDir: string;
  logFile: string;
  pid: number;
  /** SIGINT to the launcher (it stops its children), SIGKILL to anything left; removes the data folder unless kept. */
  stop(keepData: boolean): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function tail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Starts the embedded launcher, or with `kind: 'cluster'` the cluster launcher (docs/cluster.md:
 * Temporal server on PostgreSQL, 2 receivers and 2 workers behind nginx, whose port is `port`);
 * `stop` works at once, also while it is still starting.
 */
export async function launchStack(opts: {
  kind?: 'embedded' | 'cluster';
  logLevel: string;
  startTimeoutS: number;
  env?: NodeJS.ProcessEnv;
  /** Another build's embedded launcher (bench/build-commit.ts: an earlier commit's), run on its own servers. */
  launcher?: string;
}): Promise<BenchStack> {
  const kind = opts.kind ?? 'embedded';
  const launcher = opts.launcher ?? entryPoint(kind, 'run `npm run bench`, which builds it');
  const needed =
    kind === 'cluster'
      ? ['TEMPORAL_SERVER_BIN', 'TEMPORAL_SQL_TOOL_BIN', 'POSTGRES_BIN', 'NGINX_BIN', 'FERRETDB_BIN']
      : ['TEMPORAL_CLI_BIN', 'FERRETDB_BIN'];
  for (const v of needed) {
    if (!process.env[v])
      throw new Error(`${v} is not set: run \`npm run bench\`, which builds the binaries and sets it`);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhooks-bench-'));
  // The cluster's PostgreSQL runs as `postgres` when the bench runs as root: it must enter this folder.
  fs.chmodSync(dataDir, 0o755);
  const logFile = path.join(dataDir, 'launcher.log');
  // The cluster's receivers take PORT+1 and PORT+2, its second worker the metrics ports + 2.
  const [port, uiPort, metricsPort, sdkMetricsPort, postgresPort, receiverMetricsPort, mongodbPort, temporalMetrics] =
    await freeSpacedPorts(8);
  const temporalPort = kind === 'cluster' ? await freeTemporalServerPort() : (await freePorts(1))[0];
  const adminToken = randomBytes(24).toString('base64url');
  const namespace = process.env.TEMPORAL_NAMESPACE || 'default';
  // Servers of our own: nothing set for another deployment may leak in.
  const { TEMPORAL_ADDRESS: _t, MONGODB_URI: _m, BASE_URL: _b, ADMIN_TOKEN: _a, ...inherited } = process.env;
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    DATA_DIR: dataDir,
    PORT: String(port),
    EMBEDDED_TEMPORAL_PORT: String(temporalPort),
    EMBEDDED_TEMPORAL_UI_PORT: String(uiPort),
    EMBEDDED_TEMPORAL_METRICS_PORT: String(temporalMetrics),
    WORKER_METRICS_PORT: String(metricsPort),
    SDK_METRICS_PORT: String(sdkMetricsPort),
    // The cluster's second receiver takes the port below (spaced ports: the two above are free).
    RECEIVER_METRICS_PORT: String(receiverMetricsPort + 2),
    CLUSTER_POSTGRES_PORT: String(postgresPort),
    // Read only by builds before FerretDB took a socket (the ablation's baseline commit): today's ignores it.
    EMBEDDED_MONGODB_PORT: String(mongodbPort),
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: opts.logLevel,
    // Another build's launcher runs on the embedded servers that build sets up for itself.
    ...(opts.launcher && kind === 'embedded'
      ? commitBinaries(path.resolve(path.dirname(opts.launcher), '../../..'))
      : {}),
    ...opts.env,
  };

  const log = fs.createWriteStream(logFile);
  const child = spawn(process.execPath, [launcher], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr.on('data', (chunk: Buffer) => log.write(chunk));
  let banner = '';
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(new Error(`the ${kind} stack did not start within ${opts.startTimeoutS} s; its log:\n${tail(logFile)}`)),
      opts.startTimeoutS * 1000,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      log.write(chunk);
      if (banner.includes('Ctrl-C')) return;
      banner += chunk.toString('utf8');
      if (banner.includes('Ctrl-C')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      // Let the log stream flush what it has before showing its tail.
      setTimeout(
        () =>
          reject(
            new Error(
              `the ${kind} launcher exited (${code ?? signal}) before it was ready; its log:\n${tail(logFile)}`,
            ),
          ),
        200,
      );
    });
  });
  ready.catch(() => undefined); // the caller awaits it; no unhandled rejection while it has not yet

  let stopped: Promise<void> | undefined;
  const stop = (keepData: boolean) =>
    (stopped ??= (async () => {
      const tree = child.pid ? descendants(child.pid) : [];
      await stopWithGrace(child, 'SIGINT', 60_000);
      // The launcher stops its children; anything it could not (it was killed) goes now.
      const left = tree.filter(isAlive);
      for (const pid of left) process.kill(pid, 'SIGKILL');
      for (let i = 0; i < 50 && left.some(isAlive); i++) await sleep(100);
      await new Promise((r) => log.end(r));
      if (keepData) process.stderr.write(`[bench] the stack's data folder and logs are kept in ${dataDir}\n`);
      else fs.rmSync(dataDir, { recursive: true, force: true });
    })());

  return {
    ready,
    port,
    origin: `${kind === 'cluster' ? 'https' : 'http'}://127.0.0.1:${port}`,
    // The cluster's CA, read at each request (it is made once the cluster starts); its entry's name is localhost.
    fetch:
      kind === 'cluster'
        ? trustingFetch(path.join(dataDir, 'tls', 'ca.pem'), { servername: 'localhost' })
        : globalThis.fetch,
    adminToken,
    // Today's FerretDB takes its socket; an earlier build's (the ablation's baseline) took a port.
    get mongodbUri() {
      const socket = ferretDbUri(dataDir);
      return fs.existsSync(ferretDbSocket(dataDir)) ? socket : `mongodb://127.0.0.1:${mongodbPort}/webhooks`;
    },
    // The embedded dev server's socket (its namespace: src/launch/servers/dev-namespace.ts), else its port
    // (the cluster's, or a machine without namespaces, or an earlier build's).
    get temporalAddress() {
      const socket = devServerSockets(dataDir).grpc;
      return fs.existsSync(socket) ? unixAddress(socket) : `127.0.0.1:${temporalPort}`;
    },
    workerMetricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    temporalMetricsUrl: `http://127.0.0.1:${temporalMetrics}/metrics`,
    temporalTls: () => {
      if (kind !== 'cluster') return undefined;
      const dir = path.join(dataDir, 'tls');
      const files = { ca: 'ca.pem', clientCert: 'client.pem', clientKey: 'client-key.pem' };
      const [ca, clientCert, clientKey] = Object.values(files).map((f) => path.join(dir, f));
      return temporalTls(
        clusterClientTls({
          ca,
          clientCert,
          clientKey,
          serverCert: '',
          serverKey: '',
          serverName: CLUSTER_TLS_SERVER_NAME,
        }),
      );
    },
    namespace,
    dataDir,
    logFile,
    pid: child.pid ?? -1,
    stop,
  };
}

/**
 * A baseline of the benchmark in its own process (bench/bare-koa.ts, bench/bare-http-start.ts,
 * bench/bare-receiver.ts), with `env` added to the bench's; resolves with the port it prints.
 */
export async function startBaseline(
  name: 'bare-koa' | 'bare-http-start' | 'bare-receiver',
  env: NodeJS.ProcessEnv = {},
): Promise<{ port: number; pid: number; stop(): Promise<void> }> {
  const script = path.resolve(__dirname, `${name}.js`);
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, ...env, WEBHOOKS_PARENT_PID: String(process.pid) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () => stopWithGrace(child, 'SIGTERM', 5000);
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const m = /listening on (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      child.once('exit', (code) => reject(new Error(`the ${name} baseline exited (${code}) before listening`)));
      setTimeout(() => reject(new Error(`the ${name} baseline did not listen within 30 s`)), 30_000).unref();
    });
    return { port, pid: child.pid ?? -1, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
