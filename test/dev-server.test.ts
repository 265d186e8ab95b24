/**
 * The embedded Temporal dev server (src/launch/servers/dev-servers.ts) reads search attributes from
 * its caches, not from SQLite at every use: a store made before one of the service's search
 * attributes existed gets it at the next start, usable at once. And it is closed to other users of
 * the machine (src/launch/servers/dev-namespace.ts, review #6): in a network namespace of its own,
 * reached through a socket of the data folder, its Web UI behind the admin token. It starts with
 * the embedded Go servers' garbage collector target.
 */
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import os from 'node:os';
import path from 'node:path';
import { binariesFromEnv } from '../src/launch/back-ends';
import { freePorts } from '../src/launch/os/ports';
import { spawnManaged, waitForPort } from '../src/launch/os/managed-process';
import { waitFor } from '../src/launch/os/wait';
import { devServerAddress, startTemporalDevServer } from '../src/launch/servers/dev-servers';
import { devServerSockets, namespaceSupport } from '../src/launch/servers/dev-namespace';
import { connectTemporal, nativeConnectionOptions } from '../src/temporal/socket-address';
import { ROBOT_ID, SEARCH_ATTRIBUTES } from '../src/domain/search-attributes';
import { EMBEDDED_GO_DEBUG, EMBEDDED_GO_GC_PERCENT } from '../src/domain/limits';

const binary = binariesFromEnv('npm test');

it("creates the service's search attributes a store lacks, and they are usable at once", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-server-'));
  const [port] = await freePorts(1);
  // A store of the dev server as the CLI makes it: none of the service's search attributes.
  const bare = spawnManaged('temporal', binary('TEMPORAL_CLI_BIN'), [
    'server',
    'start-dev',
    '--db-filename',
    path.join(dataDir, 'temporal.db'),
    '--port',
    String(port),
    '--headless',
    '--log-level',
    'error',
  ]);
  await waitForPort(port, bare);
  await bare.stop();

  const logFile = path.join(dataDir, 'temporal.log');
  const server = await startTemporalDevServer({
    bin: binary('TEMPORAL_CLI_BIN'),
    tuneBin: binary('SQLITE_TUNE_BIN'),
    dataDir,
    port,
    namespace: 'default',
    logFile,
  });
  const connection = await Connection.connect({ address: `127.0.0.1:${port}` });
  try {
    expect(fs.readFileSync(logFile, 'utf8')).toContain(
      `search attributes created: ${SEARCH_ATTRIBUTES.map((k) => k.name).join(', ')}`,
    );
    // Its caches were read before the creation (the list that found them missing): without the
    // second start, a start or a query naming them is refused for up to a minute.
    const client = new Client({ connection });
    await client.workflow.start('nothing', {
      taskQueue: 'nobody-polls',
      workflowId: 'with-search-attributes',
      typedSearchAttributes: [{ key: ROBOT_ID, value: 'robot-1' }],
    });
    const listed = async () => {
      const ids: string[] = [];
      for await (const w of client.workflow.list({ query: `RobotId = "robot-1"` })) ids.push(w.workflowId);
      return ids;
    };
    expect(await waitFor(listed, (ids) => ids.length === 1, 10_000)).toEqual(['with-search-attributes']);
    // Started with the embedded servers' garbage collector target and lazy release (src/launch/servers/go-env.ts).
    const environ = fs.readFileSync(`/proc/${server.child.pid}/environ`, 'utf8').split('\0');
    expect(environ).toContain(`GOGC=${process.env.GOGC ?? EMBEDDED_GO_GC_PERCENT}`);
    expect(environ).toContain(`GODEBUG=${process.env.GODEBUG ?? EMBEDDED_GO_DEBUG}`);
  } finally {
    await connection.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

/**
 * This Node where `nobody` may run it: the one the set-up brings (scripts/node.sh) is in root's cache,
 * which is closed to other users. A hard link in a temporary folder (a copy across file systems).
 */
let nodeForOthers: string | undefined;
function nodeOthersMayRun(): string {
  if (nodeForOthers) return nodeForOthers;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'node-for-nobody-'));
  fs.chmodSync(dir, 0o755);
  const node = path.join(dir, 'node');
  try {
    fs.linkSync(process.execPath, node);
  } catch {
    fs.copyFileSync(process.execPath, node);
  }
  fs.chmodSync(node, 0o755);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return (nodeForOthers = node);
}
if (process.getuid?.() === 0) nodeOthersMayRun(); // made before the tests, so that its removal follows them

/** Runs `code` (a Node script printing one line) as the unprivileged user `nobody`, another local user. */
async function asAnotherUser(code: string): Promise<string> {
  const child = spawn(nodeOthersMayRun(), ['-e', code], { uid: 65534, gid: 65534, cwd: '/' });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise((resolve, reject) => {
    child.once('exit', resolve);
    child.once('error', reject);
  });
  return out.trim();
}

/** What another user gets connecting to a TCP port on loopback and to a unix socket. */
const reachScript = (target: string) => `
const net = require('net');
const s = net.connect(${target});
s.once('connect', () => { console.log('connected'); s.destroy(); });
s.once('error', (e) => console.log(e.code));`;

const runsAsRoot = process.getuid?.() === 0;

it('is closed to other local users: gRPC on a socket of the data folder only, the Web UI behind the admin token', async () => {
  expect(namespaceSupport()).toEqual({ ok: true }); // this machine makes namespaces (scripts/setup.sh installs `ip`)
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-server-'));
  const [port, uiPort] = await freePorts(2);
  const uiPassword = 'the-admin-token-of-this-test';
  const options = { dataDir, port, uiPort, namespace: 'default', private: { uiPassword } };
  const server = await startTemporalDevServer({
    ...options,
    bin: binary('TEMPORAL_CLI_BIN'),
    tuneBin: binary('SQLITE_TUNE_BIN'),
  });
  const address = devServerAddress(options);
  const socket = devServerSockets(dataDir).grpc;
  try {
    expect(address).toBe(`unix://${socket}`);
    // Nothing listens on its port outside its namespace; its socket's folder is this user's alone.
    expect(await asAnotherUserOrHere(reachScript(`${port}, '127.0.0.1'`))).toBe('ECONNREFUSED');
    expect(fs.statSync(path.dirname(socket)).mode & 0o777).toBe(0o700);
    if (runsAsRoot) expect(await asAnotherUser(reachScript(JSON.stringify(socket)))).toBe('EACCES');
    // The Web UI: 401 without the admin token, served with it (any user name).
    const ui = `http://127.0.0.1:${uiPort}/api/v1/settings`;
    const unauthorized = await fetch(ui);
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('www-authenticate')).toMatch(/^Basic /);
    const wrong = Buffer.from('operator:not-the-token').toString('base64');
    expect((await fetch(ui, { headers: { authorization: `Basic ${wrong}` } })).status).toBe(401);
    const right = Buffer.from(`operator:${uiPassword}`).toString('base64');
    expect((await fetch(ui, { headers: { authorization: `Basic ${right}` } })).status).toBe(200);
    // The service's user works through the socket: the client, the worker's connection and the CLI.
    const connection = await connectTemporal(address);
    const native = await NativeConnection.connect(nativeConnectionOptions(address));
    try {
      expect((await connection.workflowService.getSystemInfo({})).serverVersion).toBeTruthy();
      expect(await native.workflowService.getSystemInfo({})).toHaveProperty('capabilities');
    } finally {
      await native.close();
      await connection.close();
    }
    const { stdout } = await promisify(execFile)(binary('TEMPORAL_CLI_BIN'), [
      ...['operator', 'namespace', 'describe', '-n', 'default', '--address', address, '-o', 'json'],
    ]);
    expect(JSON.parse(stdout)).toHaveProperty('namespaceInfo.name', 'default');
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

/** As `nobody` when this test can switch users, else as this user: a port nothing listens on refuses either. */
const asAnotherUserOrHere = (code: string) =>
  runsAsRoot
    ? asAnotherUser(code)
    : promisify(execFile)(process.execPath, ['-e', code]).then(({ stdout }) => stdout.trim());
