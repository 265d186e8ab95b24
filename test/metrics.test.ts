/**
 * Prometheus metrics (src/core/metrics.ts): the receiver's `GET /metrics` moves with each answer on a
 * webhook URL, the worker's metrics port (src/runtime/worker-metrics-port.ts) moves with runs and CSV
 * rows, carries the Temporal SDK's own metrics and answers `GET /healthz`, both say what they run
 * (`webhooks_build_info`), and no label ever holds an id or a token.
 */
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { serveWorkerMetrics } from '../src/runtime/worker-metrics-port';
import { buildInfo } from '../src/core/build-info';
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

/** A sample's value in Prometheus text (0 when the series is absent). */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

const receiverScrape = async () => {
  const res = await fetch(`${stack.metricsUrl}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
};

it('counts what the receiver did with each request, its status and how long it took', async () => {
  const robot = await stack.robotAtWork();
  const before = await receiverScrape();
  expect((await stack.send('POST', robot.webhookUrl, JSON.stringify({ n: 1 }))).status).toBe(200);
  expect((await stack.send('POST', robot.webhookUrl, JSON.stringify({ n: 1 }))).status).toBe(200); // same body: duplicate
  expect((await stack.send('PUT', robot.webhookUrl, '')).status).toBe(200);
  expect((await stack.send('POST', `${robot.webhookUrl}x`, '{}')).status).toBe(404);
  const after = await receiverScrape();

  const moved = (series: string) => sample(after, series) - sample(before, series);
  expect(moved('webhooks_deliveries_total{outcome="accepted"}')).toBe(1);
  expect(moved('webhooks_deliveries_total{outcome="duplicate"}')).toBe(1);
  expect(moved('webhooks_deliveries_total{outcome="empty"}')).toBe(1);
  expect(moved('webhooks_deliveries_total{outcome="unknown"}')).toBe(1);
  expect(moved('webhooks_delivery_responses_total{code="200"}')).toBe(3);
  expect(moved('webhooks_delivery_responses_total{code="404"}')).toBe(1);
  expect(moved('webhooks_ack_duration_seconds_count')).toBe(4);
  // The management API's own calls are not webhook answers.
  expect(sample(after, 'webhooks_delivery_responses_total{code="201"}')).toBe(0);
  expect(sample(after, 'webhooks_api_responses_total{code="201"}')).toBeGreaterThan(0);
  // Its one run ends before the next test counts runs.
  await waitFor(
    () => stack.runs(robot.robotId),
    (r) => r.length === 1 && r[0].status === 'succeeded',
  );
});

describe("the worker's metrics port", () => {
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    server = await serveWorkerMetrics(
      stack.metrics.worker,
      { port: 0, host: '127.0.0.1' },
      { sdkMetricsUrl: stack.metrics.sdkUrl, health: () => stack.workerHealth() },
    );
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('counts runs by status and CSV rows, and carries the Temporal SDK worker metrics', async () => {
    const scrape = () => fetch(url).then((r) => r.text());
    const before = await scrape();
    const robot = await stack.robotAtWork({ bodyFormat: 'csv', template: { n: '{{trigger.n}}' } });
    expect((await stack.send('POST', robot.webhookUrl, 'n\n1\n2\n3')).status).toBe(200);
    await waitFor(
      () => stack.runs(robot.robotId),
      (r) => r.length === 3 && r.every((run) => run.status === 'succeeded'),
    );
    const after = await scrape();

    const moved = (series: string) => sample(after, series) - sample(before, series);
    expect(moved('webhooks_runs_total{status="succeeded"}')).toBe(3);
    expect(moved('webhooks_csv_rows_total')).toBe(3);
    expect(moved('webhooks_deliveries_prepared_total{outcome="processed"}')).toBe(1);
    expect(after).toMatch(/^temporal_\w+/m); // the SDK's own (task slots, poll latencies, …)
    expect((await fetch(url.replace('/metrics', '/other'))).status).toBe(404);
  });

  it('answers GET /healthz 200 while the worker runs and Temporal answers it', async () => {
    const res = await fetch(url.replace('/metrics', '/healthz'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ worker: 'running', temporal: 'ok' });
  });

  it('shows the worker holding WORKER_WORKFLOW_TASKS workflow tasks at most: all of them free once idle', async () => {
    const series = [`task_queue="${stack.config.temporal.taskQueue}"`, 'worker_type="WorkflowWorker"'];
    const freeSlots = async () => {
      const text = await fetch(url).then((r) => r.text());
      const line = text
        .split('\n')
        .find((l) => l.startsWith('temporal_worker_task_slots_available{') && series.every((s) => l.includes(s)));
      return line === undefined ? null : Number(line.slice(line.lastIndexOf(' ') + 1));
    };
    const held = stack.config.workerWorkflowTasks; // 100 unless the environment says otherwise
    // The runs of the test above have ended; their slots come back as the SDK reports them.
    await waitFor(freeSlots, (free) => free === held, 30_000, {
      message: (free) => `the worker's free workflow task slots stayed at ${free}, not ${held}`,
    });
  });
});

it("says on both ports what the process runs: package.json's version, its Node, its revision", async () => {
  const { version } = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  // Run from the sources: no build wrote dist/build-info.json beside this code.
  const line = `webhooks_build_info{version="${version}",revision="unknown",node_version="${process.version}"} 1`;
  expect((await receiverScrape()).split('\n')).toContain(line);
  expect((await stack.metrics.worker.registry.metrics()).split('\n')).toContain(line);
  expect(buildInfo()).toEqual({ version, revision: 'unknown', nodeVersion: process.version });
});

it('never carries an id, a token or a path in a label', async () => {
  const robot = await stack.robotAtWork();
  expect((await stack.send('POST', robot.webhookUrl, JSON.stringify({ secretish: 'x' }))).status).toBe(200);
  const [, identifier, token] = /\/api\/webhooks\/([^/]+)\/([^/]+)$/.exec(robot.webhookUrl)!;
  const [deliveries] = [
    await waitFor(
      () => stack.deliveries(robot.robotId),
      (d) => d.length === 1,
    ),
  ];
  const text = (await receiverScrape()) + (await stack.metrics.worker.registry.metrics());
  for (const secret of [robot.robotId, identifier, token, deliveries[0].id, stack.config.adminToken])
    expect(text).not.toContain(secret);
  const labelValues = [...text.matchAll(/\w+="([^"]*)"/g)].map(([, v]) => v);
  expect(labelValues.every((v) => /^[\w.+-]*$/.test(v) && v.length < 40)).toBe(true);
});
