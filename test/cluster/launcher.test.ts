/**
 * `npm run start:cluster` as a newcomer runs it: the cluster launcher starts PostgreSQL, Temporal
 * server, FerretDB, 2 receivers, 2 workers and nginx, prints where they are, serves a delivery
 * sent to the URL on the card through the entry, and stops everything on Ctrl-C. The entry's TLS
 * is its own (review R8): its certificate is not the internal CA's, the receivers behind it listen
 * on loopback only, and a BASE_URL of `http://` is refused.
 */
import type { ChildProcess } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import tls from 'node:tls';
import os from 'node:os';
import path from 'node:path';
import { apiClient, robotAtWork } from '../../src/client/api-client';
import { trustingFetch } from '../../src/client/trusting-fetch';
import { descendants, exited, isAlive, startProcess } from '../../src/launch/os/child-processes';
import { freeSpacedPorts } from '../../src/launch/os/ports';
import { freeTemporalServerPort } from '../../src/launch/servers/temporal-server';
import { waitFor } from '../../src/launch/os/wait';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhooks-cluster-launcher-'));
fs.chmodSync(dataDir, 0o755); // PostgreSQL, run as `postgres` under root, must enter it
let launcher: ChildProcess | undefined;
afterAll(async () => {
  // A test that failed half way leaves nothing running (a jest run that never ends).
  if (launcher && launcher.exitCode === null) {
    const tree = descendants(launcher.pid!);
    launcher.kill('SIGINT');
    await exited(launcher);
    for (const pid of tree.filter(isAlive)) process.kill(pid, 'SIGKILL');
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The local addresses of the TCP sockets listening on `port` (Linux's /proc/net: 0100007F is 127.0.0.1). */
function listeningAddresses(port: number): string[] {
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((f) => f[1]?.endsWith(hexPort) && f[3] === '0A')
      .map((f) => f[1].slice(0, -hexPort.length)),
  );
}

/** The certificate the entry presents. */
function entryCertificate(port: number): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false }, () => {
      resolve(socket.getPeerX509Certificate()!);
      socket.end();
    });
    socket.on('error', reject);
  });
}

it('refuses a BASE_URL of http:// before starting anything: the entry serves HTTPS only', async () => {
  const refusedDir = path.join(dataDir, 'refused');
  fs.mkdirSync(refusedDir);
  const { TEMPORAL_ADDRESS: _t, MONGODB_URI: _m, ...rest } = process.env;
  const log = path.join(refusedDir, 'launcher.log');
  const refused = startProcess('cluster', { ...rest, DATA_DIR: refusedDir, BASE_URL: 'http://127.0.0.1:3980' }, log);
  expect(await exited(refused)).toBe(1);
  expect(fs.readFileSync(log, 'utf8')).toContain(
    'BASE_URL: must start with https://, as the entry serves HTTPS only (TLS at the entry): http://127.0.0.1:3980',
  );
  expect(fs.existsSync(path.join(refusedDir, 'postgresql'))).toBe(false);
});

it('starts the cluster, serves a delivery through the entry, and stops everything on Ctrl-C', async () => {
  // The launcher takes PORT+1 and +2 (receivers), the metrics ports +2 (second worker), Temporal's own.
  const [port, postgres, metrics, sdkMetrics, receiverMetrics] = await freeSpacedPorts(5);
  const p = { port, postgres, metrics, sdkMetrics, temporal: await freeTemporalServerPort() };
  // The receivers' metrics ports go down from RECEIVER_METRICS_PORT: the two above a spaced port are free.
  const receiverMetricsPort = receiverMetrics + 2;
  const { TEMPORAL_ADDRESS: _t, MONGODB_URI: _m, ADMIN_TOKEN: _a, BASE_URL: _b, ...rest } = process.env;
  const log = path.join(dataDir, 'launcher.log');
  launcher = startProcess(
    'cluster',
    {
      ...rest,
      DATA_DIR: dataDir,
      PORT: String(p.port),
      EMBEDDED_TEMPORAL_PORT: String(p.temporal),
      CLUSTER_POSTGRES_PORT: String(p.postgres),
      WORKER_METRICS_PORT: String(p.metrics),
      SDK_METRICS_PORT: String(p.sdkMetrics),
      RECEIVER_METRICS_PORT: String(receiverMetricsPort),
      LOG_LEVEL: 'warn',
    },
    log,
  );
  const printed = await waitFor(
    () => fs.readFileSync(log, 'utf8'),
    (out) => out.includes('Ctrl-C stops everything') || launcher!.exitCode !== null,
    180_000,
  );
  // TLS at the entry (review #17), with a self-signed certificate of its own (R8).
  const base = `https://localhost:${p.port}`;
  const ca = path.join(dataDir, 'edge-tls', 'edge.pem');
  const token = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
  expect(printed).toContain(`Service (webhooks and API): ${base}   (nginx, in front of the receivers)`);
  expect(printed).toContain(`curl --cacert ${ca} ${base}/`);
  expect(printed).toContain(`Receivers:                  127.0.0.1:${p.port + 1}, 127.0.0.1:${p.port + 2}`);
  expect(printed).toContain(`Temporal server:            127.0.0.1:${p.temporal}   (PostgreSQL, 4 history shards;`);
  expect(printed).toContain(`--tls-cert-path ${path.join(dataDir, 'tls', 'client.pem')}`);
  expect(printed).toContain(`Admin token:                ${token}`);
  for (const metrics of [receiverMetricsPort, receiverMetricsPort - 1])
    expect((await globalThis.fetch(`http://localhost:${metrics}/healthz`)).status).toBe(200);
  // The receivers behind the entry listen on loopback alone: nobody skips the entry's TLS and limits.
  for (const receiver of [p.port + 1, p.port + 2]) expect(listeningAddresses(receiver)).toEqual(['0100007F']);
  // Trusting the CA of Temporal's mutual TLS trusts no certificate of the entry's, and the other way round.
  const internalCa = fs.readFileSync(path.join(dataDir, 'tls', 'ca.pem'));
  await expect(trustingFetch(internalCa)(`${base}/`)).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  const presented = await entryCertificate(p.port);
  expect(presented.checkIssued(new X509Certificate(internalCa))).toBe(false);
  expect(presented.raw.equals(new X509Certificate(fs.readFileSync(ca)).raw)).toBe(true);
  expect(fs.existsSync(path.join(dataDir, 'tls', 'ca-key.pem'))).toBe(false);

  const secure = trustingFetch(fs.readFileSync(ca));
  const client = apiClient(base, token, { fetch: secure });
  const robot = await robotAtWork(client, { template: { hi: 'Hi {{trigger.name}}' }, appName: 'A', robotName: 'R' });
  expect(robot.webhookUrl.startsWith(`${base}/api/webhooks/`)).toBe(true);
  const sent = await secure(robot.webhookUrl, { method: 'POST', body: '{"name":"Ann"}' });
  expect(sent.status).toBe(200);
  // Once TLS is on, browsers are told this origin is HTTPS only.
  expect(sent.headers.get('strict-transport-security')).toBe('max-age=31536000');
  const runs = await waitFor(
    () => client.call('listRuns', { params: { id: robot.robotId } }),
    (r) => r.runs[0]?.status === 'succeeded',
  );
  expect((await client.call('getRun', { params: { id: runs.runs[0].id } })).steps[0].output).toEqual({ hi: 'Hi Ann' });

  // PostgreSQL, Temporal server, FerretDB, nginx (and its worker), 2 receivers, 2 workers.
  const tree = descendants(launcher.pid!);
  expect(tree.length).toBeGreaterThanOrEqual(8);
  launcher.kill('SIGINT');
  expect(await exited(launcher)).toBe(0);
  expect(tree.filter(isAlive)).toEqual([]);
}, 300_000);
