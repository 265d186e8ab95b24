/**
 * The worker's metrics port (WORKER_METRICS_PORT): `GET /metrics`, its own metrics (src/core/metrics.ts)
 * then those of the Temporal SDK's Prometheus exporter (bound to loopback at `sdkMetricsUrl`), as one
 * scrape; and `GET /healthz`, 200 while the worker polls and its Temporal connection answers, else 503
 * (starting, shutting down, stopped, or Temporal unreachable), with what it found as JSON. Nothing else
 * is answered (404).
 */
import http from 'node:http';
import type { NativeConnection, Worker } from '@temporalio/worker';
import type { WorkerMetrics } from '../core/metrics';
import { HEALTH_CACHE_MS, reusedFor } from './health';

/** What `GET /healthz` says of a worker: `running` only between its start and its shutdown. */
export interface WorkerHealth {
  worker: 'starting' | 'running' | 'stopping' | 'stopped';
  /** Whether Temporal answered on the worker's connection; absent when the worker is not running. */
  temporal?: 'ok' | 'unreachable';
}

/** How long Temporal has to answer a health look (on a healthy connection it answers within milliseconds). */
const TEMPORAL_HEALTH_TIMEOUT_MS = 2000;

function workerState(worker: Pick<Worker, 'getState'>): WorkerHealth['worker'] {
  switch (worker.getState()) {
    case 'INITIALIZED':
      return 'starting';
    case 'RUNNING':
      return 'running';
    case 'STOPPING':
    case 'DRAINING':
    case 'DRAINED':
      return 'stopping';
    default: // STOPPED, FAILED
      return 'stopped';
  }
}

/**
 * A worker's health, looked at most once per HEALTH_CACHE_MS: its state (no call), then, while it
 * runs, Temporal's answer to GetSystemInfo on the worker's own connection.
 */
export function workerHealth(
  worker: Pick<Worker, 'getState'>,
  connection: Pick<NativeConnection, 'workflowService' | 'withDeadline'>,
): () => Promise<WorkerHealth> {
  return reusedFor(HEALTH_CACHE_MS, async (): Promise<WorkerHealth> => {
    const state = workerState(worker);
    if (state !== 'running') return { worker: state };
    const answered = await connection
      .withDeadline(Date.now() + TEMPORAL_HEALTH_TIMEOUT_MS, () => connection.workflowService.getSystemInfo({}))
      .then(
        () => true,
        () => false,
      );
    return { worker: state, temporal: answered ? 'ok' : 'unreachable' };
  });
}

export function serveWorkerMetrics(
  metrics: WorkerMetrics,
  { port, host }: { port: number; host: string },
  { sdkMetricsUrl, health }: { sdkMetricsUrl?: string; health: () => Promise<WorkerHealth> },
): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/metrics') {
      void scrape(metrics, sdkMetricsUrl).then(
        (text) => res.writeHead(200, { 'Content-Type': metrics.registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      );
    } else if (req.method === 'GET' && req.url === '/healthz') {
      void health().then(
        (found) => {
          const healthy = found.worker === 'running' && found.temporal === 'ok';
          res.writeHead(healthy ? 200 : 503, { 'Content-Type': 'application/json' }).end(JSON.stringify(found));
        },
        () => res.writeHead(503).end(),
      );
    } else res.writeHead(404).end();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

async function scrape(metrics: WorkerMetrics, sdkMetricsUrl?: string): Promise<string> {
  const own = await metrics.registry.metrics();
  if (!sdkMetricsUrl) return own;
  // The SDK's exporter answers within milliseconds on loopback; without it the scrape still has ours.
  const sdk = await fetch(sdkMetricsUrl, { signal: AbortSignal.timeout(2000) })
    .then((r) => (r.ok ? r.text() : ''))
    .catch(() => '');
  return `${own}\n${sdk}`;
}
