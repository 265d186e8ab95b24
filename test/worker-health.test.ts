/**
 * The worker's `GET /healthz` (src/runtime/worker-metrics-port.ts) on a real worker whose Temporal
 * connection goes through a TCP proxy this test cuts: 503 before it polls, 200 while it polls and
 * Temporal answers, 503 while the connection is cut, 200 once it is back, 503 once it stopped.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createLogger } from '../src/core/log';
import { workerMetrics } from '../src/core/metrics';
import { waitFor } from '../src/launch/os/wait';
import { startWorker, type WorkerProcess } from '../src/runtime/processes';
import { serveWorkerMetrics, type WorkerHealth } from '../src/runtime/worker-metrics-port';
import { startStack, type Stack } from './support/stack';

/** A TCP proxy to `target` that can be cut (every connection closed, none taken) and opened again on its port. */
async function cuttableProxy(target: net.NetConnectOpts) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
    open: () => listen(port),
    close: () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
  };
}

/** Where the tests' Temporal listens: the dev server's unix socket (test/support/global-setup.ts) or host:port. */
function temporalTarget(address: string): net.NetConnectOpts {
  if (address.startsWith('unix://')) return { path: address.slice('unix://'.length) };
  const at = address.lastIndexOf(':');
  return { host: address.slice(0, at), port: Number(address.slice(at + 1)) };
}

let stack: Stack;
let stopped = false;
let proxy: Awaited<ReturnType<typeof cuttableProxy>>;
let worker: WorkerProcess;
let server: http.Server;
let url: string;

beforeAll(async () => {
  stack = await startStack({}, { worker: false });
  proxy = await cuttableProxy(temporalTarget(stack.config.temporal.address!));
  const config = { ...stack.config, temporal: { ...stack.config.temporal, address: proxy.address } };
  const log = createLogger('worker', 'error', { format: 'json' });
  worker = await startWorker(config, stack.models, log, {
    metrics: workerMetrics(),
    workflowBundlePath: process.env.TEST_WORKFLOW_BUNDLE,
  });
  server = await serveWorkerMetrics(workerMetrics(), { port: 0, host: '127.0.0.1' }, { health: () => worker.health() });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`;
});
afterAll(async () => {
  if (!stopped) await worker?.stop();
  await new Promise((resolve) => server?.close(resolve));
  await proxy?.close();
  await stack?.close();
});

const healthz = async (): Promise<{ status: number; body: WorkerHealth }> => {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as WorkerHealth };
};

it('answers 503 until the worker polls, 200 while Temporal answers it, 503 while cut off and once stopped', async () => {
  expect(await healthz()).toEqual({ status: 503, body: { worker: 'starting' } });
  void worker.run();
  await waitFor(healthz, (h) => h.status === 200, 30_000, { message: (h) => `healthz stayed ${JSON.stringify(h)}` });
  expect((await healthz()).body).toEqual({ worker: 'running', temporal: 'ok' });

  await proxy.cut();
  const cut = await waitFor(healthz, (h) => h.status === 503, 30_000, {
    message: (h) => `healthz stayed ${JSON.stringify(h)} with Temporal cut off`,
  });
  expect(cut.body).toEqual({ worker: 'running', temporal: 'unreachable' });

  await proxy.open();
  await waitFor(healthz, (h) => h.status === 200, 60_000, {
    message: (h) => `healthz stayed ${JSON.stringify(h)} once Temporal was back`,
  });

  await worker.stop();
  stopped = true;
  expect(await waitFor(healthz, (h) => h.status === 503)).toEqual({ status: 503, body: { worker: 'stopped' } });
});
