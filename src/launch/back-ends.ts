/**
 * How this service's back-ends are started: Temporal and MongoDB, one way for every launcher and
 * test kit. Each back-end is one of these shapes:
 *
 * - an existing one, named by TEMPORAL_ADDRESS or MONGODB_URI: that always wins; the service only
 *   connects to it, and never starts or stops it;
 * - the embedded one, a child process, with its files in the data folder and its output in the log
 *   folder: the Temporal CLI dev server in a network namespace of its own, reached through a unix
 *   socket of the data folder, its Web UI behind the admin token (servers/dev-namespace.ts; on a
 *   loopback port, open to local users, where namespaces cannot be made) (`temporal.db`, `temporal.log`), or
 *   FerretDB on SQLite on a unix socket of the data folder (`ferretdb/`, `ferretdb.log`; it opens
 *   no TCP port: ferretDbSocket), whose start also prepares the store (the
 *   collections made, then the `_id` index: docs/storage.md), so that once started it is the store
 *   the service expects, in the database EMBEDDED_DATABASE.
 *
 * - the cluster's Temporal (`clusterTemporalBackEnd`): the Temporal server on PostgreSQL over mutual
 *   TLS, as production runs it (docs/cluster.md); its start also makes or upgrades the schema and
 *   registers the namespace, and its stop leaves PostgreSQL running for the next start (`close`
 *   stops that too).
 *
 * A back-end this process starts can be stopped, cleanly or killed, and started again on the same
 * ports and files. `startBackEnds` starts both at once, and if either fails stops what was started.
 *
 * Used by the embedded launcher (src/entry/embedded.ts), the integration tests' servers
 * (test/support/global-setup.ts), the fault stack (test/faults/fault-stack.ts, each part on its
 * own) and the cluster (src/launch/cluster.ts: its Temporal and its FerretDB). The bench runs the
 * launchers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ferretDbFile, prepareEmbeddedStore } from './servers/ferretdb-index';
import {
  devServerAddress,
  EMBEDDED_DATABASE,
  ferretDbUri,
  startFerretDb,
  startTemporalDevServer,
} from './servers/dev-servers';
import { namespaceSupport } from './servers/dev-namespace';
import { type ManagedProcess } from './os/managed-process';
import { binaryFrom } from './os/binaries';
import type { Logger } from '../core/log';
import { startPostgres } from './servers/postgres';
import { prepareTemporalNamespace, prepareTemporalSchema, startTemporalServer } from './servers/temporal-server';
import { type TemporalServerOptions } from './servers/temporal-server-config';

/** The binaries scripts/binaries.sh finds or builds, by the variable it exports each in. */
type BackEndBinary = 'TEMPORAL_CLI_BIN' | 'FERRETDB_BIN' | 'SQLITE_TUNE_BIN';

/** The binaries from the environment; `command` is the one that sets them (named when one is missing). */
export const binariesFromEnv =
  (command: string) =>
  (variable: BackEndBinary): string =>
    binaryFrom(variable, 'scripts/binaries.sh', command);

/** How an embedded back-end is stopped: cleanly (SIGTERM, then SIGKILL after 10 s) or killed. */
export type StopSignal = 'SIGTERM' | 'SIGKILL';

interface BackEnd {
  /** Which back-end it is. */
  readonly name: 'temporal' | 'mongodb';
  /** Whether this process starts it; false for an existing one, whose start and stop do nothing. */
  readonly embedded: boolean;
  /** Starts it, unless it runs already; resolves once it is ready for the service. */
  start(): Promise<void>;
  /** Stops it if it runs; its files are kept for the next start. */
  stop(signal?: StopSignal): Promise<void>;
}

interface TemporalBackEnd extends BackEnd {
  readonly name: 'temporal';
  /** TEMPORAL_ADDRESS for the receiver and worker. */
  readonly address: string;
  /** The dev server's Web UI (http://localhost:<uiPort>); null for a headless or an existing one. */
  readonly webUiUrl: string | null;
  /**
   * Why the embedded dev server is open to every local user (no network namespace could be made
   * here: servers/dev-namespace.ts); null when it is closed to them, or not embedded.
   */
  readonly openToLocalUsers: string | null;
}

export interface MongodbBackEnd extends BackEnd {
  readonly name: 'mongodb';
  /** MONGODB_URI for the receiver and worker. */
  readonly uri: string;
  /** The folder of FerretDB's SQLite files (one a database); null for an existing MongoDB. */
  readonly sqliteDir: string | null;
}

interface Embedded<Binary extends BackEndBinary> {
  /** The data folder the server keeps its files in. */
  dataDir: string;
  /** The folder of its log file (made if missing). */
  logDir: string;
  /** Where a binary is (binariesFromEnv): asked only when the back-end is embedded, at its start. */
  binary: (variable: Binary) => string;
}

interface TemporalBackEndOptions extends Embedded<'TEMPORAL_CLI_BIN' | 'SQLITE_TUNE_BIN'> {
  port: number;
  /** An existing Temporal (TEMPORAL_ADDRESS): when given, it is used and the rest is not. */
  address?: string;
  namespace: string;
  /** The Web UI's port; without one the dev server runs headless. */
  uiPort?: number;
  /** The dev server's Prometheus metrics (`/metrics`); a port of the server's choosing without one. */
  metricsPort?: number;
  /** How long the namespace keeps closed workflows (EMBEDDED_RETENTION); the dev server's default without. */
  retention?: string;
  /** The Web UI's password (HTTP Basic, any user name): the admin token. Needed with `uiPort`. */
  uiPassword?: string;
  unshare?: string; // the `unshare` that makes its namespace (servers/dev-namespace.ts): tests name a missing one
}

interface MongodbBackEndOptions extends Embedded<'FERRETDB_BIN' | 'SQLITE_TUNE_BIN'> {
  /** An existing MongoDB (MONGODB_URI): when given, it is used and the rest is not. */
  uri?: string;
}

/**
 * The one process a back-end runs at a time (the dev server, FerretDB, PostgreSQL, the Temporal
 * server). `fill` starts it unless one is held, then `ready` readies it (a store prepared, a schema
 * made; if that fails it is stopped and the error thrown: a start leaves it ready or leaves nothing);
 * `stop` stops the one held, cleanly or killed, and empties the slot for the next start.
 */
function processSlot() {
  let held: ManagedProcess | undefined;
  return {
    async fill(start: () => Promise<ManagedProcess>, ready?: () => Promise<void>): Promise<void> {
      if (held) return;
      const proc = await start();
      try {
        await ready?.();
      } catch (err) {
        await proc.stop();
        throw err;
      }
      held = proc;
    },
    async stop(signal: StopSignal = 'SIGTERM'): Promise<void> {
      const proc = held;
      held = undefined;
      if (!proc) return;
      await (signal === 'SIGKILL' ? proc.kill() : proc.stop());
    },
  };
}

/** A back-end run as one child process, its log folder made before its start. */
function embeddedProcess(logDir: string, start: () => Promise<ManagedProcess>, ready?: () => Promise<void>) {
  const slot = processSlot();
  return {
    embedded: true,
    async start() {
      fs.mkdirSync(logDir, { recursive: true });
      await slot.fill(start, ready);
    },
    stop: (signal?: StopSignal) => slot.stop(signal),
  };
}

const existing = { embedded: false, start: async () => {}, stop: async () => {} };

export function temporalBackEnd(o: TemporalBackEndOptions): TemporalBackEnd {
  if (o.address) return { name: 'temporal', address: o.address, webUiUrl: null, openToLocalUsers: null, ...existing };
  if (o.uiPort !== undefined && !o.uiPassword) throw new Error("the dev server's Web UI needs a password");
  const support = namespaceSupport(o.unshare);
  const closed = support.ok ? { uiPassword: o.uiPassword ?? '', unshare: o.unshare } : undefined;
  const launch = () =>
    startTemporalDevServer({
      bin: o.binary('TEMPORAL_CLI_BIN'),
      tuneBin: o.binary('SQLITE_TUNE_BIN'),
      dataDir: o.dataDir,
      port: o.port,
      uiPort: o.uiPort,
      metricsPort: o.metricsPort,
      namespace: o.namespace,
      retention: o.retention,
      logFile: path.join(o.logDir, 'temporal.log'),
      private: closed,
    });
  return {
    name: 'temporal',
    address: devServerAddress({ ...o, private: closed }),
    webUiUrl: o.uiPort === undefined ? null : `http://localhost:${o.uiPort}`,
    openToLocalUsers: support.ok ? null : support.why,
    ...embeddedProcess(o.logDir, launch),
  };
}

/** The cluster's Temporal server and its PostgreSQL (docs/cluster.md). */
export interface ClusterTemporalOptions {
  /** The server's options; read at its start (its certificates are made by then). */
  server: () => TemporalServerOptions;
  /** PostgreSQL's log file. */
  postgresLogFile: string;
  log: Logger;
}

export interface ClusterTemporalBackEnd extends TemporalBackEnd {
  /** Stops the Temporal server (if it runs), then PostgreSQL. */
  close(): Promise<void>;
}

/**
 * The Temporal server on PostgreSQL: a start starts PostgreSQL unless it runs (then makes or
 * upgrades Temporal's schema), then the server (then registers the namespace); a stop stops the
 * server alone, as a crash of it would, and `close` PostgreSQL too.
 */
export function clusterTemporalBackEnd(o: ClusterTemporalOptions): ClusterTemporalBackEnd {
  const postgres = processSlot();
  const temporalServer = processSlot();
  const options = () => o.server();
  const address = () => `127.0.0.1:${options().ports.frontend}`;
  return {
    name: 'temporal',
    embedded: true,
    get address() {
      return address();
    },
    webUiUrl: null,
    openToLocalUsers: null,
    async start() {
      const server = options();
      const { binDir, dir, port, password } = server.postgres;
      await postgres.fill(
        () => startPostgres({ binDir, dir, port, password, logFile: o.postgresLogFile }),
        () => prepareTemporalSchema(server),
      );
      await temporalServer.fill(
        () => startTemporalServer(server),
        () => prepareTemporalNamespace(address(), server.tls, server.namespace, o.log),
      );
    },
    stop: (signal?: StopSignal) => temporalServer.stop(signal),
    async close() {
      await temporalServer.stop();
      await postgres.stop();
    },
  };
}

export function mongodbBackEnd(o: MongodbBackEndOptions): MongodbBackEnd {
  if (o.uri) return { name: 'mongodb', uri: o.uri, sqliteDir: null, ...existing };
  const uri = ferretDbUri(o.dataDir);
  const launch = () =>
    startFerretDb({ bin: o.binary('FERRETDB_BIN'), dataDir: o.dataDir, logFile: path.join(o.logDir, 'ferretdb.log') });
  // Collections made, then the `_id` index FerretDB's own lookups can use (docs/storage.md).
  const prepare = () =>
    prepareEmbeddedStore(uri, { indexBin: o.binary('SQLITE_TUNE_BIN'), dataDir: o.dataDir, dbName: EMBEDDED_DATABASE });
  return {
    name: 'mongodb',
    uri,
    sqliteDir: path.dirname(ferretDbFile(o.dataDir, EMBEDDED_DATABASE)),
    ...embeddedProcess(o.logDir, launch, prepare),
  };
}

export interface BackEnds {
  temporal: TemporalBackEnd;
  mongodb: MongodbBackEnd;
  /** Stops what was started, MongoDB first, then Temporal. */
  stop(signal?: StopSignal): Promise<void>;
}

const STARTING: Record<BackEnd['name'], string> = {
  temporal: 'starting the Temporal dev server',
  mongodb: 'starting FerretDB (SQLite)',
};

/**
 * Starts both back-ends at once (neither needs the other), each embedded one logged as it starts.
 * If either fails, both are stopped (what was started of them) before the error is thrown.
 */
export async function startBackEnds(o: {
  temporal: TemporalBackEndOptions;
  mongodb: MongodbBackEndOptions;
  log?: Pick<Logger, 'info'>;
}): Promise<BackEnds> {
  const temporal = temporalBackEnd(o.temporal);
  const mongodb = mongodbBackEnd(o.mongodb);
  const stop = async (signal?: StopSignal) => {
    await mongodb.stop(signal);
    await temporal.stop(signal);
  };
  const results = await Promise.allSettled(
    [temporal, mongodb].map((b) => {
      if (b.embedded) o.log?.info(STARTING[b.name]);
      return b.start();
    }),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { temporal, mongodb, stop };
}
