/**
 * Compose's `monitoring` profile, with a real Prometheus (Debian's: scripts/prometheus.sh, PROMETHEUS_BIN):
 * docker/prometheus.yml, its targets rewritten to this test stack's receiver and worker metrics ports and
 * its intervals shortened, scrapes the service while it takes a few deliveries; then every query of the
 * Grafana dashboard (docker/grafana/dashboards/webhooks.json) returns data through Prometheus' HTTP API.
 */
import { DEFAULT_INLINE_BODY_BYTES } from '../src/domain/limits';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { freePort } from '../src/launch/os/ports';
import { exited } from '../src/launch/os/child-processes';
import { waitFor } from '../src/launch/os/wait';
import { serveWorkerMetrics } from '../src/runtime/worker-metrics-port';
import { startStack, type Stack } from './support/stack';

const root = path.join(__dirname, '..');
/**
 * How often the test's Prometheus scrapes (compose's: 15 s), and the window `$__rate_interval` stands for: longer
 * than the test, so a rate or a quantile still covers the deliveries when its query is asked.
 */
const SCRAPE = '1s';
const RATE_INTERVAL = '10m';

interface ScrapeConfig {
  job_name: string;
  dns_sd_configs?: unknown;
  static_configs?: Array<{ targets: string[] }>;
}

/** docker/prometheus.yml with each job's targets this stack's ports (by job name) and shorter intervals. */
function testScrapeConfig(ports: Record<string, number>): string {
  const config = parse(fs.readFileSync(path.join(root, 'docker/prometheus.yml'), 'utf8')) as {
    global: Record<string, string>;
    scrape_configs: ScrapeConfig[];
  };
  config.global = { ...config.global, scrape_interval: SCRAPE, evaluation_interval: SCRAPE };
  for (const job of config.scrape_configs) {
    const port = ports[job.job_name];
    if (!port) throw new Error(`docker/prometheus.yml's job ${job.job_name} has no port in this test`);
    delete job.dns_sd_configs;
    job.static_configs = [{ targets: [`127.0.0.1:${port}`] }];
  }
  return stringify(config);
}

/** Every PromQL expression of the dashboard, with Grafana's `$__rate_interval` given a value. */
function dashboardQueries(): Array<{ panel: string; expr: string }> {
  const dashboard = JSON.parse(fs.readFileSync(path.join(root, 'docker/grafana/dashboards/webhooks.json'), 'utf8')) as {
    panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
  };
  return dashboard.panels.flatMap((p) =>
    (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr.replaceAll('$__rate_interval', RATE_INTERVAL) })),
  );
}

let stack: Stack;
let workerPort: http.Server;
let prometheus: ChildProcess;
let api: string;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhooks-prometheus-'));

beforeAll(async () => {
  const bin = process.env.PROMETHEUS_BIN;
  if (!bin) throw new Error('PROMETHEUS_BIN is not set: run the tests with `npm test` (scripts/prometheus.sh)');
  stack = await startStack();
  // The worker's metrics port as the worker process serves it (src/entry/worker.ts).
  workerPort = await serveWorkerMetrics(
    stack.metrics.worker,
    { port: 0, host: '127.0.0.1' },
    { sdkMetricsUrl: stack.metrics.sdkUrl, health: () => stack.workerHealth() },
  );
  const config = path.join(dataDir, 'prometheus.yml');
  fs.writeFileSync(
    config,
    testScrapeConfig({
      receiver: Number(new URL(stack.metricsUrl).port),
      worker: (workerPort.address() as AddressInfo).port,
    }),
  );
  const port = await freePort();
  api = `http://127.0.0.1:${port}/api/v1`;
  const log = fs.openSync(path.join(dataDir, 'prometheus.log'), 'a');
  prometheus = spawn(
    bin,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${path.join(dataDir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', log, log] },
  );
  fs.closeSync(log);
  await waitFor(
    () =>
      fetch(`http://127.0.0.1:${port}/-/ready`).then(
        (r) => r.status,
        () => prometheus.exitCode ?? 0,
      ),
    (status) => status === 200 || prometheus.exitCode !== null,
    60_000,
  );
  if (prometheus.exitCode !== null) throw new Error(fs.readFileSync(path.join(dataDir, 'prometheus.log'), 'utf8'));
});
afterAll(async () => {
  if (prometheus && prometheus.exitCode === null) {
    prometheus.kill('SIGTERM');
    await exited(prometheus);
  }
  await new Promise((resolve) => workerPort?.close(resolve));
  await stack?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface QueryAnswer {
  status: string;
  error?: string;
  data?: { resultType: string; result: Array<{ metric: Record<string, string>; value: [number, string] }> };
}
/** Data: a series with a number (a quantile over buckets that did not move is NaN: no data). */
const hasData = (a: QueryAnswer) =>
  a.status === 'success' && (a.data?.result ?? []).some((r) => Number.isFinite(Number(r.value[1])));
const query = async (expr: string): Promise<QueryAnswer> =>
  (await (await fetch(`${api}/query?query=${encodeURIComponent(expr)}`)).json()) as QueryAnswer;

it('scrapes the receiver and the worker, and answers every query of the Grafana dashboard with data', async () => {
  // Both targets up, as the config names them.
  await waitFor(
    () => query('up == 1'),
    (a) => a.data?.result.length === 2,
    60_000,
  );
  // Deliveries of every kind the dashboard shows: runs from JSON and CSV, a refusal, a refused credential.
  const robot = await stack.robotAtWork();
  for (let n = 0; n < 3; n++)
    expect((await stack.send('POST', robot.webhookUrl, JSON.stringify({ n }))).status).toBe(200);
  // A body over INLINE_BODY_BYTES is prepared by an activity on the task queue (the others in local
  // activities): the queue's wait has a sample.
  const large = JSON.stringify({ n: 3, pad: 'x'.repeat(DEFAULT_INLINE_BODY_BYTES) });
  expect((await stack.send('POST', robot.webhookUrl, large)).status).toBe(200);
  const csv = await stack.robotAtWork({ bodyFormat: 'csv', template: { n: '{{trigger.n}}' } });
  expect((await stack.send('POST', csv.webhookUrl, 'n\n1\n2')).status).toBe(200);
  expect((await stack.send('POST', `${robot.webhookUrl}x`, '{}')).status).toBe(404);
  expect((await fetch(`${stack.baseUrl}/api/robots`)).status).toBe(401);
  await waitFor(
    () => stack.runs(csv.robotId),
    (runs) => runs.length === 2 && runs.every((r) => r.status === 'succeeded'),
  );
  // A scrape after them: Prometheus has the runs.
  await waitFor(
    () => query('sum(webhooks_runs_total{status="succeeded"})'),
    (a) => Number(a.data?.result[0]?.value[1] ?? 0) >= 6,
    60_000,
  );
  // The queue's wait counts activities only from the first one on: a second one after that scrape moves its
  // buckets, which a rate needs.
  expect((await stack.send('POST', robot.webhookUrl, large.replace('"n":3', '"n":4'))).status).toBe(200);

  const queries = dashboardQueries();
  expect(queries.length).toBeGreaterThan(10);
  // Rates need two samples in their window, the quantiles a bucket that moved: each query is asked until it
  // has answered with data once (the SDK's metrics come as its worker reports them).
  const answered = new Set<string>();
  const pending = () => queries.filter((q) => !answered.has(q.expr));
  await waitFor(
    async () => {
      for (const q of pending()) if (hasData(await query(q.expr))) answered.add(q.expr);
      return pending();
    },
    (left) => left.length === 0,
    60_000,
    { message: (left) => `dashboard queries without data: ${JSON.stringify(left)}` },
  );
});
