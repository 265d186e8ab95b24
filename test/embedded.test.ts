/**
 * The README's start command as a newcomer runs it: the embedded launcher starts the Temporal
 * dev server (with its Web UI), FerretDB, the receiver and the worker, prints where they are,
 * stops them all on Ctrl-C, and finds its data again on the next start.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { freePort } from '../src/launch/os/ports';
import { apiClient, robotAtWork } from '../src/client/api-client';
import { ferretDbSocket } from '../src/launch/servers/dev-servers';
import { exited, isAlive, startProcess } from '../src/launch/os/child-processes';
import { waitFor } from '../src/launch/os/wait';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhooks-embedded-'));
const log = path.join(dataDir, 'launcher.log');
let env: NodeJS.ProcessEnv;
let launcher: ChildProcess | undefined;

beforeAll(async () => {
  const { TEMPORAL_ADDRESS: _t, MONGODB_URI: _m, ADMIN_TOKEN: _a, ...rest } = process.env;
  env = {
    ...rest,
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    EMBEDDED_TEMPORAL_PORT: String(await freePort()),
    EMBEDDED_TEMPORAL_UI_PORT: String(await freePort()),
    WORKER_METRICS_PORT: String(await freePort()),
    RECEIVER_METRICS_PORT: String(await freePort()),
    SDK_METRICS_PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
  };
});
afterAll(async () => {
  if (launcher) {
    launcher.kill('SIGINT');
    await exited(launcher);
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Starts the launcher and returns what it printed once everything is up. */
async function start(): Promise<string> {
  fs.writeFileSync(log, '');
  launcher = startProcess('embedded', env, log);
  return waitFor(
    () => fs.readFileSync(log, 'utf8'),
    (out) => out.includes('Ctrl-C stops everything') || launcher!.exitCode !== null,
    120_000,
  );
}

/** The machine's listening TCP sockets, as /proc/net/tcp and tcp6 list them (`127.0.0.1:9463`, `[::]:9463`). */
function tcpListeners(): Array<{ address: string; inode: string }> {
  const found: Array<{ address: string; inode: string }> = [];
  for (const [file, v6] of [
    ['/proc/net/tcp', false],
    ['/proc/net/tcp6', true],
  ] as const) {
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, 'utf8').trim().split('\n').slice(1)) {
      const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
      if (state !== '0A') continue; // LISTEN
      const [hex, portHex] = local.split(':');
      const port = parseInt(portHex, 16);
      const address = v6
        ? `[${hex === '00000000000000000000000000000000' ? '::' : hex}]`
        : hex
            .match(/../g)!
            .reverse()
            .map((b) => parseInt(b, 16))
            .join('.');
      found.push({ address: `${address}:${port}`, inode });
    }
  }
  return found;
}

/** The inodes of a process's open sockets. */
function socketInodesOf(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    const link = fs.readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: 'utf8' });
    const m = /^socket:\[(\d+)\]$/.exec(link);
    if (m) inodes.add(m[1]);
  }
  return inodes;
}

/** The pids of a process's children. */
function childrenOf(pid: number): number[] {
  return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
    .trim()
    .split(/\s+/)
    .map(Number);
}

async function stop(): Promise<number | null> {
  const pids = childrenOf(launcher!.pid!);
  expect(pids.length).toBe(4); // Temporal, FerretDB, worker, receiver
  launcher!.kill('SIGINT');
  const code = await exited(launcher!);
  launcher = undefined;
  const alive = pids.filter(isAlive);
  expect(alive).toEqual([]);
  return code;
}

it('starts everything, serves a delivery end to end, stops on Ctrl-C without orphans, and keeps its data', async () => {
  const printed = await start();
  const base = `http://localhost:${env.PORT}`;
  const token = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
  expect(printed).toContain(`Service (webhooks and API): ${base}`);
  expect(printed).toContain(
    `Temporal Web UI:            http://localhost:${env.EMBEDDED_TEMPORAL_UI_PORT}/namespaces/default/workflows`,
  );
  expect(printed).toContain(`Admin token:                ${token}`);
  const metrics = `http://localhost:${env.RECEIVER_METRICS_PORT}`;
  expect(printed).toContain(`Metrics and health:         ${metrics}/metrics, /healthz (receiver)`);

  expect((await fetch(`${metrics}/healthz`)).status).toBe(200);
  // The Web UI decodes payloads through the receiver's codec endpoint on its metrics port (the
  // operator's side), under the Web UI's own key, which its operator gives it in their browser:
  // printed here, never in the Web UI's served settings (which anyone who loads it reads), nor in
  // any process's arguments (review N6).
  const uiKey = fs.readFileSync(path.join(dataDir, 'web-ui-key'), 'utf8').trim();
  const endpoint = `${metrics}/codec/${uiKey}`;
  expect(printed).toContain(`Web UI codec endpoint:      ${endpoint}`);
  const ui = `http://localhost:${env.EMBEDDED_TEMPORAL_UI_PORT}`;
  // The Web UI asks for the admin token (HTTP Basic): another local user gets 401 (review #6).
  const asOperator = { headers: { authorization: `Basic ${Buffer.from(`operator:${token}`).toString('base64')}` } };
  expect((await fetch(`${ui}/api/v1/settings`)).status).toBe(401);
  const settings = JSON.stringify(await (await fetch(`${ui}/api/v1/settings`, asOperator)).json());
  expect(settings).not.toContain(uiKey);
  for (const pid of [launcher!.pid!, ...childrenOf(launcher!.pid!)]) {
    const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    expect(argv).not.toContain(uiKey);
    expect(argv).not.toContain(token);
  }
  // The data folder and all in it are the service user's alone (review #6): the embedded servers'
  // files included; FerretDB takes no TCP connection, only on its socket in there; the metrics
  // ports listen on loopback.
  expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
  for (const entry of fs.readdirSync(dataDir, { recursive: true, withFileTypes: true })) {
    const mode = fs.lstatSync(path.join(entry.parentPath, entry.name)).mode & 0o777;
    if (entry.isDirectory()) expect([entry.name, mode]).toEqual([entry.name, 0o700]);
    else if (entry.isFile()) expect([entry.name, mode]).toEqual([entry.name, 0o600]);
  }
  const ferretDb = childrenOf(launcher!.pid!).find((pid) =>
    fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('ferretdb'),
  )!;
  const itsSockets = socketInodesOf(ferretDb);
  expect(tcpListeners().filter((l) => itsSockets.has(l.inode))).toEqual([]);
  expect(await accepting({ path: ferretDbSocket(dataDir) })).toBe(true);
  // The worker may still be starting when the launcher prints: its port is looked at once it listens.
  for (const port of [env.RECEIVER_METRICS_PORT, env.WORKER_METRICS_PORT]) {
    const bound = await waitFor(
      () => Promise.resolve(tcpListeners().filter((l) => l.address.endsWith(`:${port}`))),
      (found) => found.length > 0,
    );
    expect(bound.map((l) => l.address)).toEqual([`127.0.0.1:${port}`]);
  }
  const preflight = await fetch(`${endpoint}/decode`, {
    method: 'OPTIONS',
    headers: { origin: ui, 'access-control-request-method': 'POST' },
  });
  expect(preflight.headers.get('access-control-allow-origin')).toBe(ui);
  const dashboard = await fetch(`${base}/`);
  expect(dashboard.status).toBe(200);
  expect(await dashboard.text()).toContain('<div id="app">');
  expect((await fetch(`${ui}/`, asOperator)).status).toBe(200);
  // Temporal's gRPC is on a socket of the data folder only: nothing listens on its port outside.
  const socket = path.join(dataDir, 'temporal-sockets', 'grpc.sock');
  expect(printed).toContain(`Temporal (this user only):  unix://${socket}`);
  expect(await accepting({ path: socket })).toBe(true);
  expect(await listening(env.EMBEDDED_TEMPORAL_PORT)).toBe(false);

  const client = apiClient(base, token);
  const api = client.json;
  const robot = await robotAtWork(client, {
    template: { hi: 'Hi {{trigger.name}}' },
    appName: 'Shop',
    robotName: 'R',
  });
  expect((await fetch(robot.webhookUrl, { method: 'POST', body: '{"name":"Ann"}' })).status).toBe(200);
  const runs = await waitFor(
    () => api('GET', `/api/robots/${robot.robotId}/runs`),
    (r) => r.runs[0]?.status === 'succeeded',
  );
  expect((await api('GET', `/api/runs/${runs.runs[0].id}`)).steps[0].output).toEqual({ hi: 'Hi Ann' });

  expect(await stop()).toBe(0);

  // The next start finds the robot, its URL and its run; the URL still works.
  await start();
  const again = await api('GET', `/api/robots/${robot.robotId}`);
  expect(again.trigger.card.webhookUrl).toBe(robot.webhookUrl);
  expect(again.runCounts).toEqual({ total: 1, running: 0, succeeded: 1, failed: 0 });
  expect((await fetch(robot.webhookUrl, { method: 'PUT', body: '{"name":"Bob"}' })).status).toBe(200);
  await waitFor(
    () => api('GET', `/api/robots/${robot.robotId}`),
    (r) => r.runCounts.succeeded === 2,
  );
  expect(await stop()).toBe(0);
}, 300_000);

/** Whether the process runs (a zombie, exited and not reaped, does not). */
function running(pid: number): boolean {
  try {
    return !execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' })
      .trim()
      .startsWith('Z');
  } catch {
    return false; // ps exits 1 for no such process
  }
}

it("stops the servers a killed launcher left running at the next start, and not a running launcher's", async () => {
  await start();
  const serverPid = (name: string) =>
    (JSON.parse(fs.readFileSync(path.join(dataDir, `${name}.pid`), 'utf8')) as { pid: number }).pid;
  const servers = [serverPid('temporal'), serverPid('ferretdb')];
  try {
    launcher!.kill('SIGKILL');
    await exited(launcher!);
    launcher = undefined;
    expect(servers.filter(running)).toEqual(servers); // Go servers do not notice their launcher is gone

    const printed = await start();
    expect(printed).toContain('Ctrl-C stops everything');
    expect(servers.filter(running)).toEqual([]);
    const logs = path.join(dataDir, 'logs');
    expect(fs.readFileSync(path.join(logs, 'temporal.log'), 'utf8')).toContain(`stopped temporal (pid ${servers[0]})`);
    expect(fs.readFileSync(path.join(logs, 'ferretdb.log'), 'utf8')).toContain(`stopped ferretdb (pid ${servers[1]})`);
    expect((await fetch(`http://localhost:${env.RECEIVER_METRICS_PORT}/healthz`)).status).toBe(200);

    // A second launcher on the same data folder leaves the first one's servers alone. On the same ports it
    // is refused before anything is spawned, naming what holds them; on ports of its own, by the folder.
    const secondLog = path.join(dataDir, 'second.log');
    const second = startProcess('embedded', env, secondLog);
    expect(await exited(second)).toBe(1);
    expect(fs.readFileSync(secondLog, 'utf8')).toContain(`is in use by pid ${launcher!.pid} (`);
    const ownPorts = Object.fromEntries(
      await Promise.all(
        ['PORT', 'EMBEDDED_TEMPORAL_PORT', 'EMBEDDED_TEMPORAL_UI_PORT', 'WORKER_METRICS_PORT']
          .concat(['RECEIVER_METRICS_PORT', 'SDK_METRICS_PORT'])
          .map(async (name) => [name, String(await freePort())]),
      ),
    );
    const third = startProcess('embedded', { ...env, ...ownPorts }, secondLog);
    expect(await exited(third)).toBe(1);
    expect(fs.readFileSync(secondLog, 'utf8')).toContain(
      `belongs to a launcher that still runs (pid ${launcher!.pid})`,
    );
    expect([serverPid('temporal'), serverPid('ferretdb')].filter(running)).toHaveLength(2);
  } finally {
    // Should the next start fail, the servers left running are not left to outlive the tests.
    for (const pid of servers.filter(running)) process.kill(pid, 'SIGKILL');
  }
  expect(await stop()).toBe(0);
}, 300_000);

it('refuses to start with a bad setting, naming the variable, the value and what is expected', async () => {
  const bad = startProcess('embedded', { ...env, PORT: 'eighty' }, log);
  expect(await exited(bad)).toBe(1);
  expect(fs.readFileSync(log, 'utf8')).toContain("PORT='eighty': expected a whole number, from 0 to 65535");
});

/** Whether something accepts connections on this loopback port. */
function listening(port: string | undefined): Promise<boolean> {
  return accepting({ port: Number(port), host: '127.0.0.1' });
}

/** Whether something accepts connections there. */
function accepting(target: net.NetConnectOpts): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(target);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

it('stops the servers it started when a later start step fails, and says so', async () => {
  // The `_id` index helper is needed after Temporal and FerretDB are up: a missing one fails that step.
  fs.writeFileSync(log, '');
  const bad = startProcess('embedded', { ...env, SQLITE_TUNE_BIN: path.join(dataDir, 'missing') }, log);
  expect(await exited(bad)).toBe(1);
  const printed = fs.readFileSync(log, 'utf8');
  expect(printed).toContain('could not start; stopping what was started');
  expect(printed).toContain('SQLITE_TUNE_BIN must name the binary');
  expect(await listening(env.EMBEDDED_TEMPORAL_PORT)).toBe(false);
  expect(await accepting({ path: path.join(dataDir, 'temporal-sockets', 'grpc.sock') })).toBe(false);
  expect(await accepting({ path: ferretDbSocket(dataDir) })).toBe(false);
}, 120_000);
