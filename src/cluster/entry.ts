/**
 * The cluster's one entry point (docs/cluster.md): nginx spreading senders, the API and the
 * dashboard over the receivers, round robin.
 *
 * Its contract:
 * - A request goes to the next receiver when one refuses the connection, times out, or answers
 *   502 or 503, POST and PUT included (`non_idempotent`): a delivery sent twice is still one run,
 *   because its workflow ID comes from its dedup key. At most one other receiver is tried.
 * - A receiver is never marked down (max_fails=0): when Temporal is down every receiver answers
 *   503, and the sender must get that 503, not nginx's own 502. The entry answers 502 only when
 *   no receiver takes connections at all.
 * - Bodies are read whole before a receiver sees them (request buffering, as nginx does by
 *   default), up to a little more than MAX_BODY_BYTES, so the receiver's own 413 answers a body
 *   too large, as it does without the entry.
 * - The receivers see the sender's address in X-Forwarded-For and the original Host.
 *
 * The same function writes docker/nginx.conf for docker-compose.yml (test/unit/compose.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnManaged, waitForPort, type ManagedProcess } from '../embedded/servers';

export interface EntryConfig {
  /** What nginx listens on: `127.0.0.1:3000`, or `3000` for every address. */
  listen: string;
  /** The receivers, `host:port`. */
  receivers: string[];
  /** Where nginx keeps its pid file and the bodies it buffers. */
  dir: string;
  /** A file, or `stderr`. */
  errorLog: string;
  maxBodyBytes: number;
  /** nginx's worker user, when its master runs as root. */
  user?: string;
}

/** What docker-compose.yml's `entry` runs (the receivers are one scaled service there). */
export const COMPOSE_ENTRY: Omit<EntryConfig, 'maxBodyBytes'> = {
  listen: '3000',
  receivers: ['receiver:3000'],
  dir: '/tmp/nginx',
  errorLog: 'stderr',
};

/** Bytes above MAX_BODY_BYTES nginx still takes, so the receiver, not nginx, refuses a body too large. */
const BODY_HEADROOM_BYTES = 1024 * 1024;

export function entryConfig(o: EntryConfig): string {
  const temp = (name: string) => `  ${name}_temp_path ${path.posix.join(o.dir, `${name}-temp`)};`;
  return [
    '# The entry point in front of the receivers (src/cluster/entry.ts, which writes this file).',
    ...(o.user ? [`user ${o.user};`] : []),
    'worker_processes 1;',
    `pid ${path.posix.join(o.dir, 'nginx.pid')};`,
    `error_log ${o.errorLog} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    '  access_log off;',
    `  client_max_body_size ${o.maxBodyBytes + BODY_HEADROOM_BYTES};`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp),
    '  upstream receivers {',
    ...o.receivers.map((r) => `    server ${r} max_fails=0;`),
    '    keepalive 32;',
    '  }',
    '  server {',
    `    listen ${o.listen};`,
    '    location / {',
    '      proxy_pass http://receivers;',
    '      proxy_http_version 1.1;',
    '      proxy_set_header Connection "";',
    '      proxy_set_header Host $http_host;',
    '      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    '      proxy_set_header X-Forwarded-Proto $scheme;',
    '      proxy_next_upstream error timeout http_502 http_503 non_idempotent;',
    '      proxy_next_upstream_tries 2;',
    '      proxy_connect_timeout 2s;',
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
}

export interface EntryOptions {
  bin: string;
  dir: string;
  port: number;
  receiverPorts: number[];
  maxBodyBytes: number;
  logFile?: string;
}

/** Writes the config into its folder and starts nginx in the foreground on loopback. */
export async function startEntry(o: EntryOptions): Promise<ManagedProcess> {
  fs.mkdirSync(o.dir, { recursive: true });
  const conf = path.join(o.dir, 'nginx.conf');
  const errorLog = path.join(o.dir, 'error.log');
  fs.writeFileSync(
    conf,
    entryConfig({
      listen: `127.0.0.1:${o.port}`,
      receivers: o.receiverPorts.map((p) => `127.0.0.1:${p}`),
      dir: o.dir,
      errorLog,
      maxBodyBytes: o.maxBodyBytes,
      // As root, its workers would run as `nobody`, who cannot write the buffered bodies here.
      user: process.getuid?.() === 0 ? 'root root' : undefined,
    }),
  );
  const args = ['-p', o.dir, '-c', conf, '-e', errorLog, '-g', 'daemon off;'];
  const proc = spawnManaged('entry', o.bin, args, { logFile: o.logFile });
  await waitForPort(o.port, proc);
  return proc;
}
