/**
 * The embedded default: the Temporal CLI dev server (SQLite, Web UI) and FerretDB (SQLite) as
 * MongoDB, each keeping its files under the data folder, run as child processes.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { DEV_SERVER_SEARCH_ATTRIBUTE_FLAGS, missingSearchAttributes } from '../../temporal/search-attribute-setup';
import { DEDUP_WINDOW } from '../../domain/dedup';
import { TEMPORAL_EVENTS_CACHE_BYTES_PER_SHARD } from '../../domain/limits';
import { stopLeftOver } from '../os/left-over';
import { spawnManaged, waitForPort, waitForSocket, type ManagedProcess } from '../os/managed-process';
import { unixAddress } from '../../temporal/socket-address';
import { devServerSockets, startInNamespace } from './dev-namespace';
import { goServerEnv } from './go-env';

/** The database the embedded FerretDB keeps the service's collections in (both launchers). */
export const EMBEDDED_DATABASE = 'webhooks';

interface TemporalDevServerOptions {
  bin: string;
  dataDir: string;
  port: number;
  /** The Web UI's port; without one the server runs headless (tests). */
  uiPort?: number;
  /** The server's own Prometheus metrics (`/metrics`, loopback); a port of its choosing without one. */
  metricsPort?: number;
  namespace: string;
  /**
   * How long closed workflows are kept: the window in which a repeated delivery is recognised
   * (README, Deduplication). The dev server's own default is 24 hours.
   */
  retention?: string;
  /** scripts/sqlite-tune (SQLITE_TUNE_BIN): tunes the database while the server is stopped. */
  tuneBin: string;
  logFile?: string;
  /** In a network namespace of its own, its Web UI behind `uiPassword` (./dev-namespace.ts); else on loopback. */
  private?: { uiPassword: string; unshare?: string };
}

/** Where the dev server's clients reach it: its socket's address when private, else its loopback port. */
export function devServerAddress(o: Pick<TemporalDevServerOptions, 'dataDir' | 'port' | 'private'>): string {
  return o.private ? unixAddress(devServerSockets(o.dataDir).grpc) : `127.0.0.1:${o.port}`;
}

/** The embedded server's namespace keeps closed workflows for the dedup window. */
export const EMBEDDED_RETENTION = DEDUP_WINDOW;

/**
 * The dev server's SQLite (one connection serves every history, visibility and task write, so
 * what each costs bounds the runs per second; docs/benchmark.md measures each):
 * - WAL with synchronous=NORMAL: a crash of the process (not of the machine) loses nothing;
 * - an exclusive lock: no other process reads the file while the server runs (ours tune it only
 *   while it is stopped), so no lock is taken and released around every transaction;
 * - a 256 MiB page cache and 1 GiB of memory-mapped reads: the store grows by every workflow kept
 *   for the dedup window, and SQLite's 2 MiB default read pages back from the kernel more and more
 *   as it grows (the runs slowed as a 100,000-row CSV went on);
 * - a checkpoint every 10,000 pages (40 MiB of WAL) instead of 1,000, and temporary tables in memory.
 */
const TEMPORAL_SQLITE_PRAGMAS = [
  'journal_mode=wal',
  'synchronous=normal',
  'locking_mode=exclusive',
  'cache_size=-262144',
  'mmap_size=1073741824',
  'wal_autocheckpoint=10000',
  'temp_store=memory',
];

/**
 * The dev server's dynamic configuration:
 * - its one shard's events cache (TEMPORAL_EVENTS_CACHE_BYTES_PER_SHARD);
 * - search attributes and namespaces read from its caches, as a real server does, not from SQLite
 *   at every use: the CLI turns `system.forceSearchAttributesCacheRefreshOnRead` on so that a search
 *   attribute is usable the moment it is created, which here cost some 250 cluster-metadata and 110
 *   namespace reads a second on the one SQLite connection while deliveries ran (docs/benchmark.md,
 *   issue 44). The service's own are created with the database (DEV_SERVER_SEARCH_ATTRIBUTE_FLAGS);
 *   one added to an existing database restarts the server once (`startTemporalDevServer`).
 */
const DEV_SERVER_DYNAMIC_CONFIG: Array<[string, number | boolean]> = [
  ['history.eventsCacheMaxSizeBytes', TEMPORAL_EVENTS_CACHE_BYTES_PER_SHARD],
  ['system.forceSearchAttributesCacheRefreshOnRead', false],
];

/**
 * Fair dispatch (Temporal's `matching.enableFairness`): a task queue hands out its tasks in turn by
 * their fairness key, which is a delivery's URL (src/deliveries/start.ts; its activities and
 * child runs inherit it), so one URL's fan-out cannot make another robot's runs wait behind all of
 * its queued runs (docs/security.md, Fair sharing). Fair queues keep their tasks in a table of their
 * own and never read the classic one: a dev server whose classic table still holds tasks (queued
 * by a version before 0.7 when it stopped) starts without it, so that they are handed out; the
 * start after they are done turns it on, for good (a marker in the data folder: once on, turning it
 * off would leave the fair table's tasks behind in turn).
 */
const FAIR_DISPATCH: [string, boolean] = ['matching.enableFairness', true];
const FAIR_DISPATCH_MARKER = 'temporal-fair-dispatch';

/** Whether this start turns fair dispatch on (see FAIR_DISPATCH). */
async function fairDispatch(o: TemporalDevServerOptions, db: string): Promise<boolean> {
  const marker = path.join(o.dataDir, FAIR_DISPATCH_MARKER);
  if (fs.existsSync(marker)) return true;
  const classic = Number(await sqliteTune(o.tuneBin, ['temporal-classic-tasks', db]));
  if (classic > 0) {
    if (o.logFile)
      fs.appendFileSync(
        o.logFile,
        `${new Date().toISOString()} fair dispatch waits for the ${classic} tasks of an earlier version; ` +
          'the next start turns it on\n',
      );
    return false;
  }
  fs.writeFileSync(marker, '');
  return true;
}

/**
 * Starts the dev server on its database in the data folder. A database made by this start is
 * first made by a start of its own, stopped at once, and tuned (`sqlite-tune temporal-visibility`:
 * the visibility indexes the service never searches by are dropped), then started for good; an
 * existing one is tuned before each start (nothing to do once tuned). On an existing one, the
 * service's search attributes that it lacks (one added by a later version) are created, and the
 * server is started again so that each of its services reads them (its caches are not refreshed at
 * every read: DEV_SERVER_DYNAMIC_CONFIG).
 */
export async function startTemporalDevServer(o: TemporalDevServerOptions): Promise<ManagedProcess> {
  fs.mkdirSync(o.dataDir, { recursive: true });
  const pidFile = await stopLeftOverServer('temporal', o.dataDir, o.logFile);
  const db = path.join(o.dataDir, 'temporal.db');
  const existed = fs.existsSync(db);
  if (!existed) await (await launchDevServer(o, db, pidFile, false)).stop();
  await sqliteTune(o.tuneBin, ['temporal-visibility', db]);
  const fair = await fairDispatch(o, db);
  let proc = await launchDevServer(o, db, pidFile, fair);
  try {
    if (existed && (await createMissingSearchAttributes(o))) {
      await proc.stop();
      proc = await launchDevServer(o, db, pidFile, fair);
    }
    if (o.retention) await setRetention(o, o.retention);
  } catch (err) {
    // Not returned, so nobody else could stop it.
    await proc.stop();
    throw err;
  }
  return proc;
}

/**
 * Stops a server of this name that a killed launcher left running over the data folder
 * (../os/left-over.ts), and says so in its log; returns the file its pid is to be kept in.
 */
async function stopLeftOverServer(name: string, dataDir: string, logFile?: string): Promise<string> {
  const pidFile = path.join(dataDir, `${name}.pid`);
  const pid = await stopLeftOver(pidFile, name);
  if (pid !== null && logFile)
    fs.appendFileSync(
      logFile,
      `${new Date().toISOString()} stopped ${name} (pid ${pid}), left running by a launcher\n`,
    );
  return pidFile;
}

async function launchDevServer(
  o: TemporalDevServerOptions,
  db: string,
  pidFile: string,
  fair: boolean,
): Promise<ManagedProcess> {
  const dynamicConfig = fair ? [...DEV_SERVER_DYNAMIC_CONFIG, FAIR_DISPATCH] : DEV_SERVER_DYNAMIC_CONFIG;
  const args = [
    'server',
    'start-dev',
    '--db-filename',
    db,
    '--ip',
    '127.0.0.1',
    '--port',
    String(o.port),
    ...(o.uiPort === undefined ? ['--headless'] : ['--ui-port', String(o.uiPort)]),
    ...(o.metricsPort === undefined ? [] : ['--metrics-port', String(o.metricsPort)]),
    '--log-level',
    'warn',
    ...TEMPORAL_SQLITE_PRAGMAS.flatMap((p) => ['--sqlite-pragma', p]),
    ...(o.namespace === 'default' ? [] : ['--namespace', o.namespace]),
    ...DEV_SERVER_SEARCH_ATTRIBUTE_FLAGS,
    ...dynamicConfig.flatMap(([key, value]) => ['--dynamic-config-value', `${key}=${value}`]),
  ];
  if (!o.private) {
    const proc = spawnManaged('temporal', o.bin, args, { logFile: o.logFile, pidFile, env: goServerEnv() });
    await waitForPort(o.port, proc);
    return proc;
  }
  return startInNamespace({ ...o, uiPassword: o.private.uiPassword, unshare: o.private.unshare, args, pidFile });
}

/** Runs scripts/sqlite-tune (SQLITE_TUNE_BIN) on the stopped dev server's database; resolves with what it printed. */
function sqliteTune(bin: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(bin, args, (err, out, stderr) =>
      err ? reject(new Error(`sqlite-tune ${args[0]}: ${stderr || err.message}`)) : resolve(out),
    ),
  );
}

/** Retried briefly: the namespace may not be registered yet when the port opens. */
async function setRetention(o: TemporalDevServerOptions, retention: string): Promise<void> {
  await operator(o, 'set the namespace retention', ['namespace', 'update', '--retention', retention]);
}

/** Creates those of the service's search attributes the namespace lacks; resolves with whether it created any. */
async function createMissingSearchAttributes(o: TemporalDevServerOptions): Promise<boolean> {
  const listed = await operator(o, 'list the search attributes', ['search-attribute', 'list', '-o', 'json']);
  const missing = missingSearchAttributes(
    (JSON.parse(listed) as { customAttributes?: Record<string, string> }).customAttributes,
  );
  for (const k of missing)
    await operator(o, `create the search attribute ${k.name}`, [
      'search-attribute',
      'create',
      '--name',
      k.name,
      '--type',
      'Keyword',
    ]);
  if (missing.length > 0 && o.logFile)
    fs.appendFileSync(
      o.logFile,
      `${new Date().toISOString()} search attributes created: ${missing.map((k) => k.name).join(', ')}; ` +
        'the server starts again to read them\n',
    );
  return missing.length > 0;
}

/** `temporal operator …` on the namespace, asked again while the server comes up; resolves with what it printed. */
async function operator(o: TemporalDevServerOptions, what: string, args: string[]): Promise<string> {
  const full = ['operator', ...args, '--address', devServerAddress(o), '-n', o.namespace];
  for (let attempt = 1; ; attempt++) {
    try {
      return await new Promise<string>((resolve, reject) =>
        execFile(o.bin, full, (err: Error | null, out: string) => (err ? reject(err) : resolve(out))),
      );
    } catch (err) {
      if (attempt >= 30) throw new Error(`could not ${what}: ${(err as Error).message}`, { cause: err });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

interface FerretDbOptions {
  bin: string;
  dataDir: string;
  logFile?: string;
}

/**
 * The unix socket the embedded FerretDB takes connections on, and the only way in: it opens no
 * TCP port, and the socket is in a folder of the data folder, which is the service's user's alone
 * (src/launch/os/data-folder.ts). FerretDB v1 on SQLite has no authentication of its own. A socket's
 * path is at most 107 bytes: for a data folder too deep for that, a folder of its own (0700) in
 * the system's temporary folder, named by the data folder's hash.
 */
export function ferretDbSocket(dataDir: string): string {
  const socket = path.join(path.resolve(dataDir), 'ferretdb', 'mongodb.sock');
  if (Buffer.byteLength(socket) <= 100) return socket;
  const hash = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `webhooks-ferretdb-${hash}`, 'mongodb.sock');
}

/** MONGODB_URI of the embedded FerretDB: its socket, percent-encoded as the driver reads a socket's path. */
export function ferretDbUri(dataDir: string): string {
  return `mongodb://${encodeURIComponent(ferretDbSocket(dataDir))}/${EMBEDDED_DATABASE}`;
}

export async function startFerretDb(o: FerretDbOptions): Promise<ManagedProcess> {
  const dir = path.join(o.dataDir, 'ferretdb');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const socket = ferretDbSocket(o.dataDir);
  fs.mkdirSync(path.dirname(socket), { recursive: true, mode: 0o700 });
  fs.chmodSync(path.dirname(socket), 0o700);
  const pidFile = await stopLeftOverServer('ferretdb', o.dataDir, o.logFile);
  // A socket left by a FerretDB killed with SIGKILL would stop the next one from listening.
  fs.rmSync(socket, { force: true });
  const args = [
    '--handler=sqlite',
    `--sqlite-url=file:${dir}/`,
    `--state-dir=${dir}`,
    '--listen-addr=',
    `--listen-unix=${socket}`,
    '--debug-addr=-',
    '--telemetry=disable',
    '--log-level=WARN',
  ];
  const proc = spawnManaged('ferretdb', o.bin, args, { logFile: o.logFile, pidFile, env: goServerEnv() });
  await waitForSocket(socket, proc);
  return proc;
}
