/**
 * A whole service whose every part can be stopped, killed and started again: its own Temporal
 * dev server (on a SQLite file, so it keeps its data across a restart), its own FerretDB, and
 * the receiver and worker as separate processes, all on free loopback ports.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitForPort } from '../../src/launch/os/managed-process';
import { freePort } from '../../src/launch/os/ports';
import { binariesFromEnv, mongodbBackEnd, temporalBackEnd, type StopSignal } from '../../src/launch/back-ends';
import { exited, startProcess } from '../../src/launch/os/child-processes';
import { stackApi, stackForTests, type StackApi } from './stack-api';

type Part = 'temporal' | 'mongodb' | 'receiver' | 'worker';

export interface FaultStack extends StackApi {
  baseUrl: string;
  /** The receiver's metrics port (GET /metrics, /healthz). */
  metricsUrl: string;
  dataDir: string;
  /** Starts a part again, on its ports and (the servers) its files; FerretDB's start prepares its store. */
  start(part: Part): Promise<void>;
  /** SIGTERM (a clean stop) or SIGKILL. */
  stop(part: Part, signal?: StopSignal): Promise<void>;
  /** How the receiver's or the worker's process (as last started) exited: null while it runs. */
  exitOf(part: 'receiver' | 'worker'): { code: number | null; signal: string | null } | null;
  /** Everything every process of the stack has logged so far. */
  logs(): string;
  close(): Promise<void>;
}

interface FaultStackOptions {
  /** Settings of the worker's process only (its heap's size, what it prepares at once). */
  workerEnv?: NodeJS.ProcessEnv;
}

/** A fault stack started before the tests of the file (or `describe`) this is called in, closed after them. */
export const useFaultStack = (options?: FaultStackOptions): FaultStack => stackForTests(() => startFaultStack(options));

export async function startFaultStack({ workerEnv = {} }: FaultStackOptions = {}): Promise<FaultStack> {
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
