/**
 * The production-shaped cluster on one machine (docs/cluster.md), as `npm run start:cluster` runs
 * it and test/cluster/ tests it: PostgreSQL, Temporal server on it, FerretDB, several receivers and
 * several workers as their own processes (each restarted when it dies, as docker-compose.yml's
 * `restart: unless-stopped` does), and nginx in front of the receivers.
 *
 * Start order: Temporal (PostgreSQL, Temporal's schema, the server and its namespace: one back-end,
 * src/launch/back-ends.ts), FerretDB, the workers and receivers, the entry. A step that fails stops
 * what was started. Stop order: the services, then the servers from the entry back to PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { waitForPort, type ManagedProcess } from './os/managed-process';
import { supervise, type Supervised } from './os/supervisor';
import type { Logger } from '../core/log';
import { ConfigError } from '../core/config';
import { clusterTemporalBackEnd, mongodbBackEnd, type ClusterTemporalBackEnd, type MongodbBackEnd } from './back-ends';
import { startNginx, type EdgeTls } from './servers/nginx';
import { clientTlsEnv, clusterCertificates, edgeCertificate, type ClusterTls } from './servers/tls';
import type { TemporalServerOptions, TemporalServerPorts } from './servers/temporal-server-config';

export interface ClusterBinaries {
  temporalServer: string;
  temporalSqlTool: string;
  /** PostgreSQL's bin folder. */
  postgres: string;
  nginx: string;
  ferretdb: string;
  sqliteTune: string;
}

interface ClusterOptions {
  /** The services' DATA_DIR (admin token, secrets key, bodies); each server keeps its files in a folder of it. */
  dataDir: string;
  logDir: string;
  /** The entry's port: the one address senders and people use. */
  port: number;
  receiverPorts: number[];
  /** Each receiver's metrics port (GET /metrics, /healthz). */
  receiverMetricsPorts: number[];
  /** Per worker: its metrics port and the Temporal SDK exporter's behind it. */
  workerMetricsPorts: Array<{ worker: number; sdk: number }>;
  postgresPort: number;
  temporalPorts: TemporalServerPorts;
  namespace: string;
  maxBodyBytes: number;
  bins: ClusterBinaries;
  /** The environment the receivers and workers start from (the cluster adds their addresses). */
  env: NodeJS.ProcessEnv;
  log: Logger;
  /** Each receiver's and worker's output in its own file in logDir, rather than the launcher's stderr. */
  serviceLogFiles?: boolean;
  /**
   * TLS at the entry: a certificate and key given (TLS_CERT, TLS_KEY), or `made` (self-signed, in
   * DATA_DIR/edge-tls: edgeCertificate); plain HTTP without (some cluster tests).
   */
  edgeTls?: EdgeTls | 'made';
  /** The entry's read timeout of management requests (API_READ_TIMEOUT_S unless given). */
  apiReadTimeoutSeconds?: number;
  /** The compiled receiver and worker entry points (tests, which run this file as TypeScript, give dist's). */
  entryPoint?: (kind: 'receiver' | 'worker') => string;
}

/** The address the receivers listen on behind the entry (HOST): loopback, where nginx reaches them. */
export const RECEIVER_HOST = '127.0.0.1';

type ClusterServer = 'temporal' | 'mongodb' | 'entry';
type ClusterService = { kind: 'receiver' | 'worker'; index: number; process: Supervised };

/**
 * The URL on the cards and in links (BASE_URL, else the entry's own on `localhost`). Its scheme must
 * be the entry's: with TLS at the entry, a plain `http://` one would put URLs that cannot work on
 * every card (the entry answers plain HTTP 400), and the other way round. Refused with a message
 * naming BASE_URL.
 */
export function clusterBaseUrl(given: string | undefined, port: number, tls: boolean): string {
  const scheme = tls ? 'https' : 'http';
  if (given === undefined || given === '') return `${scheme}://localhost:${port}`;
  if (!given.toLowerCase().startsWith(`${scheme}://`))
    throw new ConfigError(
      `Invalid environment:\n  BASE_URL: must start with ${scheme}://, as the entry serves ` +
        `${tls ? 'HTTPS only (TLS at the entry)' : 'plain HTTP'}: ${given} would put URLs that cannot work on the cards`,
    );
  return given.replace(/\/+$/, '');
}

/** Reads the password kept in `file`, making it (readable by its owner only) the first time. */
function persistentPassword(file: string): string {
  try {
    fs.writeFileSync(file, randomBytes(24).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return fs.readFileSync(file, 'utf8').trim();
}

export class Cluster {
  /** The entry (nginx). */
  private entry: ManagedProcess | undefined;
  /** The Temporal server on PostgreSQL, and FerretDB as the embedded launcher starts it (src/launch/back-ends.ts). */
  private readonly temporalBackEnd: ClusterTemporalBackEnd;
  private readonly mongodb: MongodbBackEnd;
  readonly services: ClusterService[] = [];
  /** PostgreSQL's password for `temporal` (DATA_DIR/postgres-password). */
  private readonly postgresPassword: string;
  /** The Temporal frontend's certificates, made at the first start. */
  private certificates: ClusterTls | undefined;

  constructor(private readonly o: ClusterOptions) {
    // A BASE_URL the entry cannot serve is refused before anything starts.
    clusterBaseUrl(o.env.BASE_URL, o.port, Boolean(o.edgeTls));
    this.postgresPassword = persistentPassword(path.join(o.dataDir, 'postgres-password'));
    this.temporalBackEnd = clusterTemporalBackEnd({
      server: () => this.temporal,
      postgresLogFile: path.join(o.logDir, 'postgresql.log'),
      log: o.log,
    });
    this.mongodb = mongodbBackEnd({
      binary: (variable) => (variable === 'FERRETDB_BIN' ? o.bins.ferretdb : o.bins.sqliteTune),
      dataDir: o.dataDir,
      logDir: o.logDir,
    });
  }

  /** The certificates clients of its Temporal present and trust (TEMPORAL_TLS_*). */
  get tls(): ClusterTls {
    if (!this.certificates) throw new Error('the cluster has not started');
    return this.certificates;
  }

  /** The entry's certificate and key: those given, or its own self-signed pair (made the first time). */
  async edgeTls(): Promise<EdgeTls | undefined> {
    return this.o.edgeTls === 'made' ? edgeCertificate(path.join(this.o.dataDir, 'edge-tls')) : this.o.edgeTls;
  }

  /** BASE_URL, of the entry's scheme (clusterBaseUrl), else the entry's own address. */
  get baseUrl(): string {
    return clusterBaseUrl(this.o.env.BASE_URL, this.o.port, Boolean(this.o.edgeTls));
  }
  get temporalAddress(): string {
    return `127.0.0.1:${this.o.temporalPorts.frontend}`;
  }
  get mongodbUri(): string {
    return this.mongodb.uri;
  }

  private get temporal(): TemporalServerOptions {
    return {
      serverBin: this.o.bins.temporalServer,
      sqlToolBin: this.o.bins.temporalSqlTool,
      postgres: {
        binDir: this.o.bins.postgres,
        port: this.o.postgresPort,
        dir: this.postgresDir,
        password: this.postgresPassword,
      },
      tls: this.tls,
      dir: path.join(this.o.dataDir, 'temporal-server'),
      ports: this.o.temporalPorts,
      namespace: this.o.namespace,
      logFile: path.join(this.o.logDir, 'temporal-server.log'),
    };
  }

  private get postgresDir(): string {
    return path.join(this.o.dataDir, 'postgresql');
  }

  async start(): Promise<void> {
    try {
      this.certificates = await clusterCertificates(path.join(this.o.dataDir, 'tls'));
      for (const server of ['temporal', 'mongodb'] as const) await this.startServer(server);
      this.startServices();
      for (const s of this.services.filter((s) => s.kind === 'receiver'))
        await waitForPort(this.o.receiverPorts[s.index], s.process.current());
      await this.startServer('entry');
    } catch (err) {
      this.o.log.error('the cluster could not start; stopping what was started');
      await this.stop();
      throw err;
    }
  }

  /** Starts one server (again), with what it needs before others use it. */
  async startServer(server: ClusterServer): Promise<void> {
    const o = this.o;
    o.log.info(`starting ${server}`);
    switch (server) {
      case 'temporal':
        // PostgreSQL and Temporal's schema first, unless PostgreSQL runs; then the server and its namespace.
        await this.temporalBackEnd.start();
        return;
      case 'mongodb':
        // Its start also makes the collections and the `_id` index (docs/storage.md).
        await this.mongodb.start();
        return;
      case 'entry':
        this.entry = await startNginx({
          bin: o.bins.nginx,
          dir: path.join(o.dataDir, 'entry'),
          port: o.port,
          receiverPorts: o.receiverPorts,
          maxBodyBytes: o.maxBodyBytes,
          apiReadTimeoutSeconds: o.apiReadTimeoutSeconds,
          logFile: path.join(o.logDir, 'entry.log'),
          tls: await this.edgeTls(),
        });
    }
  }

  /** Stops one server: cleanly, or with SIGKILL (Temporal: the server alone, its PostgreSQL keeps running). */
  async stopServer(server: ClusterServer, signal?: 'SIGKILL'): Promise<void> {
    if (server === 'mongodb') return this.mongodb.stop(signal);
    if (server === 'temporal') return this.temporalBackEnd.stop(signal);
    const proc = this.entry;
    this.entry = undefined;
    if (!proc) return;
    await (signal === 'SIGKILL' ? proc.kill() : proc.stop());
  }

  private startServices(): void {
    const o = this.o;
    const env = {
      ...o.env,
      TEMPORAL_ADDRESS: this.temporalAddress,
      TEMPORAL_NAMESPACE: o.namespace,
      MONGODB_URI: this.mongodbUri,
      DATA_DIR: o.dataDir,
      // The URLs on the cards, and links, are the entry's: senders never see a receiver's own port.
      BASE_URL: this.baseUrl,
      // Behind the entry: a client's address is the one nginx saw (refusals are counted by it).
      TRUST_PROXY: '1',
      ...clientTlsEnv(this.tls),
      WEBHOOKS_PARENT_PID: String(process.pid),
    };
    const entryScript = o.entryPoint ?? ((kind: string) => path.join(__dirname, '..', 'entry', `${kind}.js`));
    const start = (kind: 'receiver' | 'worker', index: number, extra: NodeJS.ProcessEnv) => {
      const name = `${kind}-${index + 1}`;
      const logFile = o.serviceLogFiles ? path.join(o.logDir, `${name}.log`) : undefined;
      const proc = supervise(name, process.execPath, [entryScript(kind)], { ...env, ...extra }, o.log, logFile);
      this.services.push({ kind, index, process: proc });
    };
    o.workerMetricsPorts.forEach((ports, i) =>
      start('worker', i, { WORKER_METRICS_PORT: String(ports.worker), SDK_METRICS_PORT: String(ports.sdk) }),
    );
    o.receiverPorts.forEach((port, i) =>
      // On loopback only: nobody reaches a receiver but through the entry, its TLS and its limits.
      start('receiver', i, {
        PORT: String(port),
        HOST: RECEIVER_HOST,
        RECEIVER_METRICS_PORT: String(o.receiverMetricsPorts[i]),
      }),
    );
  }

  /** A receiver's or worker's current process (the supervisor starts a new one when it dies). */
  service(kind: 'receiver' | 'worker', index: number): Supervised {
    const found = this.services.find((s) => s.kind === kind && s.index === index);
    if (!found) throw new Error(`no ${kind} ${index + 1}`);
    return found.process;
  }

  async stop(): Promise<void> {
    await Promise.all(this.services.splice(0).map((s) => s.process.stop()));
    for (const server of ['entry', 'mongodb'] as const) await this.stopServer(server);
    await this.temporalBackEnd.close();
  }
}
