/**
 * The cluster's PostgreSQL (docs/cluster.md): a cluster of its own in a folder of the data folder,
 * made with `initdb` on first start, listening on loopback only, run in the foreground as a child
 * process. Its superuser is `temporal` (the role name the compose file uses), with a generated
 * password (DATA_DIR/postgres-password, readable by its owner only) for every TCP connection; only
 * its own socket, in its own folder that no other user may enter, takes the launcher without one
 * (that is how the password is set, at each start, and how an older cluster that trusted every
 * local connection is closed).
 *
 * PostgreSQL refuses to run as root. Run as root (a container, CI), its folder is given to the
 * system's `postgres` user and its commands run as that user (`setpriv`, which execs, so signals
 * reach PostgreSQL itself); that user must be able to reach the folder through its parents.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { spawnManaged, waitForPort, type ManagedProcess } from '../os/managed-process';

/** The role Temporal connects as, and PostgreSQL's superuser. */
export const POSTGRES_ROLE = 'temporal';
/**
 * Connections PostgreSQL takes: Temporal opens a pool per store and per service (frontend,
 * history, matching, worker: 4 × (20 + 2) at its defaults), the schema tool and psql a few more.
 */
const POSTGRES_MAX_CONNECTIONS = 200;

export interface PostgresOptions {
  /** PostgreSQL's bin folder (initdb, postgres, pg_isready, psql). */
  binDir: string;
  /** Its own folder (created; `initdb` makes the cluster there on first start). */
  dir: string;
  port: number;
  /** The `temporal` role's password: every TCP connection gives it. */
  password: string;
  logFile?: string;
}

const asRoot = (): boolean => process.getuid?.() === 0;

/** The command and arguments that run `bin` as the `postgres` user when we are root. */
function asPostgres(bin: string, args: string[]): [string, string[]] {
  if (!asRoot()) return [bin, args];
  return ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', bin, ...args]];
}

/** Runs a PostgreSQL program (as `postgres` when we are root); `input` goes to its stdin. */
function run(bin: string, args: string[], input?: string): Promise<string> {
  const [command, argv] = asPostgres(bin, args);
  return new Promise((resolve, reject) => {
    const child = execFile(command, argv, { encoding: 'utf8' }, (err, stdout, stderr) =>
      err ? reject(new Error(`${path.basename(bin)} failed: ${stderr.trim() || err.message}`)) : resolve(stdout),
    );
    // A program that exits without reading its stdin (pg_isready, test) closes the pipe: the
    // write's EPIPE would be an unhandled error that ends the launcher. Its exit status is what counts.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input ?? '');
  });
}

/** Who may connect how: the own socket without a password (its folder is closed to others), TCP with one. */
const PG_HBA = [
  '# Written by the webhook trigger service (src/launch/servers/postgres.ts) at each start.',
  'local all all trust',
  'host all all 127.0.0.1/32 scram-sha-256',
  'host all all ::1/128 scram-sha-256',
  '',
].join('\n');

/** Makes the folder, owned by `postgres` when we are root, and says clearly when that user cannot use it. */
async function prepareFolder(dir: string): Promise<void> {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!asRoot()) return;
  const { uid, gid } = await new Promise<{ uid: number; gid: number }>((resolve, reject) =>
    execFile('id', ['postgres'], { encoding: 'utf8' }, (err, out) => {
      const ids = /uid=(\d+).*gid=(\d+)/.exec(out ?? '');
      if (err || !ids)
        reject(new Error('running as root needs the system user `postgres` (Debian: apt-get install postgresql)'));
      else resolve({ uid: Number(ids[1]), gid: Number(ids[2]) });
    }),
  );
  fs.chownSync(dir, uid, gid);
  fs.chmodSync(dir, 0o700);
  try {
    await run('/usr/bin/test', ['-w', dir, '-a', '-x', dir]);
  } catch {
    throw new Error(
      `PostgreSQL runs as the user postgres, which cannot reach ${dir}: ` +
        'choose a DATA_DIR whose parent folders others may enter (chmod o+x), such as one under /var or /tmp',
    );
  }
}

/** Starts PostgreSQL (making its cluster first when the folder has none) and waits until it takes queries. */
export async function startPostgres(o: PostgresOptions): Promise<ManagedProcess> {
  const bin = (name: string) => path.join(o.binDir, name);
  await prepareFolder(o.dir);
  if (!fs.existsSync(path.join(o.dir, 'PG_VERSION'))) {
    const auth = ['--auth-local=trust', '--auth-host=scram-sha-256'];
    await run(bin('initdb'), ['-D', o.dir, '-U', POSTGRES_ROLE, ...auth, '-E', 'UTF8', '--no-instructions']);
  }
  // Written at each start: a cluster made by an earlier version trusted every connection.
  const hba = path.join(o.dir, 'pg_hba.conf');
  const owner = fs.statSync(path.join(o.dir, 'PG_VERSION'));
  fs.writeFileSync(hba, PG_HBA, { mode: 0o600 });
  fs.chownSync(hba, owner.uid, owner.gid);
  const [command, args] = asPostgres(bin('postgres'), [
    '-D',
    o.dir,
    '-p',
    String(o.port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    `unix_socket_directories=${o.dir}`,
    '-c',
    `max_connections=${POSTGRES_MAX_CONNECTIONS}`,
  ]);
  // SIGINT is PostgreSQL's fast shutdown; SIGTERM would wait for every client to leave.
  const proc = spawnManaged('postgresql', command, args, { logFile: o.logFile, stopSignal: 'SIGINT' });
  await waitForPort(o.port, proc);
  // The port opens before recovery ends: pg_isready says when it takes connections.
  for (let attempt = 1; ; attempt++) {
    try {
      await run(bin('pg_isready'), ['-h', '127.0.0.1', '-p', String(o.port), '-U', POSTGRES_ROLE]);
      // Through the own socket; the password on stdin, never in an argument anyone could list.
      await run(
        bin('psql'),
        [...socketArgs(o), '-d', 'postgres', '-q', '-v', 'ON_ERROR_STOP=1', '-f', '-'],
        setPassword(o),
      );
      return proc;
    } catch (err) {
      if (proc.child.exitCode !== null || attempt >= 300) {
        await proc.stop();
        throw new Error(`PostgreSQL did not become ready: ${(err as Error).message}`, { cause: err });
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** psql's arguments to connect through the own socket as `temporal`. */
function socketArgs(o: Pick<PostgresOptions, 'dir' | 'port'>): string[] {
  return ['-h', o.dir, '-p', String(o.port), '-U', POSTGRES_ROLE];
}

function setPassword(o: Pick<PostgresOptions, 'password'>): string {
  return `ALTER ROLE ${POSTGRES_ROLE} PASSWORD '${o.password.replace(/'/g, "''")}';\n`;
}

/** One query's rows, tab-separated (psql -tA), as `temporal` through the own socket. */
export function psql(
  o: Pick<PostgresOptions, 'binDir' | 'port' | 'dir'>,
  database: string,
  sql: string,
): Promise<string> {
  return run(path.join(o.binDir, 'psql'), [...socketArgs(o), '-d', database, '-tA', '-c', sql]);
}
