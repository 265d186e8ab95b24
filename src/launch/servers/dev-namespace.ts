/**
 * The embedded Temporal dev server, closed to other users of the machine (review #6). The dev
 * server (CLI 1.5.1) takes no credential and no TLS, so it is not given a port anyone can reach:
 *
 * - it runs in a network namespace of its own (`unshare -rn`: a user namespace mapping this user,
 *   and a network namespace whose loopback is brought up), where its gRPC port, Web UI and metrics
 *   listen on a loopback nobody outside has;
 * - a bridge beside it in that namespace (`BRIDGE`, a few lines of Node) takes connections on unix
 *   sockets in the data folder (`0700`: this user's alone) and copies bytes to those ports. A socket
 *   is a file, so the kernel checks the folder's permissions on every connect: no password, and
 *   no TLS on the run path (every poll and task of the worker goes through it), only a copy;
 * - TEMPORAL_ADDRESS is the gRPC socket's (`unix:///…/grpc.sock`): the receiver's client, the
 *   worker and the Temporal CLI (`--address unix:///…`) dial it (src/temporal/socket-address.ts);
 *   the worker's Rust core asks through HTTP CONNECT, which the bridge answers once per connection;
 * - the Web UI is served outside on its loopback port by `gateWebUi`, which asks for the admin
 *   token (HTTP Basic, any user name) before it forwards; the server's metrics are forwarded as
 *   they were (counts, no payload).
 *
 * Where namespaces cannot be made (no `unshare`, no `ip` or `ifconfig`, user namespaces turned
 * off), `namespaceSupport` says why, and the server runs on a loopback port as before, with a
 * warning in the launcher's log and banner (docs/security.md says what is then open).
 */
import { spawnSync } from 'node:child_process';
import { createHash, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawnManaged, waitForSocket, type ManagedProcess } from '../os/managed-process';
import { exited } from '../os/child-processes';
import { recordServer } from '../os/left-over';
import { goServerEnv } from './go-env';

/** Brings the namespace's loopback up: `ip` (iproute2) where there is one, else `ifconfig`. */
const LOOPBACK_UP = '{ ip link set lo up || ifconfig lo up; } 2>/dev/null';

type Support = { ok: true } | { ok: false; why: string };
const supportBy = new Map<string, Support>();

/** Whether this user can run a server in a network namespace of its own here (asked once a process). */
export function namespaceSupport(unshare = 'unshare'): Support {
  let support = supportBy.get(unshare);
  if (!support) {
    const probe = spawnSync(unshare, ['-rn', 'sh', '-c', LOOPBACK_UP], { encoding: 'utf8' });
    support =
      probe.status === 0
        ? { ok: true }
        : {
            ok: false,
            why: probe.error
              ? `unshare: ${probe.error.message}`
              : (probe.stderr.trim() || 'no `ip` or `ifconfig` to bring its loopback up').split('\n')[0],
          };
    supportBy.set(unshare, support);
  }
  return support;
}

/** The dev server's sockets, in a folder of the data folder (or, too deep for a socket's 107 bytes, of tmp). */
export function devServerSockets(dataDir: string): { grpc: string; ui: string; metrics: string } {
  let dir = path.join(path.resolve(dataDir), 'temporal-sockets');
  if (Buffer.byteLength(path.join(dir, 'metrics.sock')) > 100) {
    const hash = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
    dir = path.join(os.tmpdir(), `webhooks-temporal-${hash}`);
  }
  return { grpc: path.join(dir, 'grpc.sock'), ui: path.join(dir, 'ui.sock'), metrics: path.join(dir, 'metrics.sock') };
}

/** Makes the sockets' folder this user's alone, without a socket a killed bridge left. */
export function prepareSocketFolder(sockets: ReturnType<typeof devServerSockets>): void {
  const dir = path.dirname(sockets.grpc);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  for (const socket of Object.values(sockets)) fs.rmSync(socket, { force: true });
}

/** The bridge's first line: how a look at the processes (the bench's CPU per role) tells it apart. */
export const BRIDGE_MARKER = "// the embedded Temporal dev server's bridge";

/**
 * The bridge, run by Node in the namespace (`node -e BRIDGE '<json>'`): for each `{ socket, port }`,
 * once the port answers, it listens on the socket and copies each connection to the port. A
 * connection that opens with `CONNECT ` (the worker's Rust core) is answered `200` first. It exits
 * when its parent (the dev server, which took the shell's place) is gone.
 */
const BRIDGE = `${BRIDGE_MARKER}
const net = require('net');
const parent = process.ppid;
setInterval(() => { if (process.ppid !== parent) process.exit(0); }, 1000);
const pipe = (c, head, port) => {
  const up = net.connect(port, '127.0.0.1');
  up.setNoDelay(true);
  if (head.length > 0) up.write(head);
  c.pipe(up); up.pipe(c);
  const end = () => { c.destroy(); up.destroy(); };
  c.on('error', end); up.on('error', end); c.on('close', end); up.on('close', end);
};
const serve = ({ socket, port }) => net.createServer((c) => {
  let head = Buffer.alloc(0);
  const first = (chunk) => {
    head = Buffer.concat([head, chunk]);
    if (head.length < 8 && 'CONNECT '.startsWith(head.toString('latin1'))) return;
    let rest = head;
    if (head.subarray(0, 8).toString('latin1') === 'CONNECT ') {
      const end = head.indexOf('\\r\\n\\r\\n');
      if (end < 0) { if (head.length > 8192) c.destroy(); return; }
      c.write('HTTP/1.1 200 OK\\r\\n\\r\\n');
      rest = head.subarray(end + 4);
    }
    c.off('data', first); c.pause();
    pipe(c, rest, port);
  };
  c.on('data', first);
  c.on('error', () => c.destroy());
}).listen(socket);
const whenUp = (b) => {
  const s = net.connect(b.port, '127.0.0.1');
  s.once('connect', () => { s.destroy(); serve(b); });
  s.once('error', () => setTimeout(() => whenUp(b), 100));
};
for (const b of JSON.parse(process.argv[1])) whenUp(b);
`;

/** `unshare` and its arguments: `bin args` in a namespace of its own, the bridge beside it for `bridges`. */
export function inNamespace(
  unshare: string,
  bin: string,
  args: string[],
  bridges: Array<{ socket: string; port: number }>,
): { command: string; args: string[] } {
  // The shell brings the loopback up, starts the bridge, and becomes the server (its pid is the server's).
  const script = `${LOOPBACK_UP} || exit 97; "$1" -e "$2" "$3" & shift 3; exec "$@"`;
  return {
    command: unshare,
    args: ['-rn', 'sh', '-c', script, 'sh', process.execPath, BRIDGE, JSON.stringify(bridges), bin, ...args],
  };
}

/** A server outside the namespace, on this machine's loopback; `close` stops it and its connections. */
export interface Gate {
  close(): Promise<void>;
}

function listening(server: net.Server, port: number): Promise<Gate> {
  const open = new Set<net.Socket>();
  server.on('connection', (c: net.Socket) => {
    open.add(c);
    c.once('close', () => open.delete(c));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () =>
      resolve({
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            for (const c of open) c.destroy();
          }),
      }),
    );
  });
}

/** Whether `Authorization: Basic …` carries `password` (any user name). */
function basicPasswordIs(header: string | undefined, password: string): boolean {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!match) return false;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const given = Buffer.from(decoded.slice(decoded.indexOf(':') + 1));
  const expected = Buffer.from(password);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The Web UI on `port` (loopback): forwarded to its socket for whoever gives `password` (HTTP Basic). */
export function gateWebUi(port: number, socket: string, password: string): Promise<Gate> {
  const server = http.createServer((req, res) => {
    if (!basicPasswordIs(req.headers.authorization, password)) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="Temporal Web UI: the admin token", charset="UTF-8"' });
      res.end('the admin token is the password (any user name)\n');
      return;
    }
    const { authorization: _, ...headers } = req.headers;
    const up = http.request({ socketPath: socket, path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
  return listening(server, port);
}

/** Connections to `port` (loopback) copied to `socket`, as they are. */
export function forwardPort(port: number, socket: string): Promise<Gate> {
  const server = net.createServer((c) => {
    const up = net.connect(socket);
    c.pipe(up);
    up.pipe(c);
    const end = () => {
      c.destroy();
      up.destroy();
    };
    c.on('error', end);
    up.on('error', end);
  });
  return listening(server, port);
}

interface NamespacedServer {
  /** The Temporal CLI and its `server start-dev` arguments. */
  bin: string;
  args: string[];
  dataDir: string;
  /** The ports it listens on in the namespace; the Web UI's and metrics' are gated or forwarded outside. */
  port: number;
  uiPort?: number;
  metricsPort?: number;
  uiPassword: string;
  unshare?: string;
  logFile?: string;
  pidFile: string;
}

/**
 * Starts the dev server in a namespace of its own with its bridge, and, outside, the Web UI's gate
 * and the metrics' forward; resolves once its gRPC socket takes connections. Its stop closes them too.
 */
export async function startInNamespace(o: NamespacedServer): Promise<ManagedProcess> {
  const sockets = devServerSockets(o.dataDir);
  prepareSocketFolder(sockets);
  const bridges = [
    { socket: sockets.grpc, port: o.port },
    ...(o.uiPort === undefined ? [] : [{ socket: sockets.ui, port: o.uiPort }]),
    ...(o.metricsPort === undefined ? [] : [{ socket: sockets.metrics, port: o.metricsPort }]),
  ];
  const run = inNamespace(o.unshare ?? 'unshare', o.bin, o.args, bridges);
  const proc = spawnManaged('temporal', run.command, run.args, {
    logFile: o.logFile,
    pidFile: o.pidFile,
    env: goServerEnv(),
  });
  const gates: Gate[] = [];
  const closeGates = () => Promise.all(gates.splice(0).map((g) => g.close()));
  try {
    await waitForSocket(sockets.grpc, proc);
    // Recorded again as what it now is: `unshare` became the shell, and the shell the server
    // (../os/left-over.ts trusts a pid only while its command line is the one recorded).
    recordServer(
      o.pidFile,
      proc.child.pid,
      exited(proc.child).then(() => undefined),
    );
    if (o.uiPort !== undefined) gates.push(await gateWebUi(o.uiPort, sockets.ui, o.uiPassword));
    if (o.metricsPort !== undefined) gates.push(await forwardPort(o.metricsPort, sockets.metrics));
  } catch (err) {
    await closeGates();
    await proc.stop();
    throw err;
  }
  return {
    ...proc,
    stop: async (graceMs) => {
      await closeGates();
      await proc.stop(graceMs);
    },
    kill: async () => {
      await closeGates();
      await proc.kill();
    },
  };
}
