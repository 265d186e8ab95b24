/**
 * Prometheus metrics (prom-client): `GET /metrics` on the receiver, and the worker's metrics port
 * (WORKER_METRICS_PORT), which also carries the Temporal SDK's own worker metrics.
 *
 * Contract: a label holds one value of a small, closed set named here (an outcome, a status code,
 * a run status), never an id, a token, a path or anything a sender chooses, so a scrape is safe to
 * show anyone and its size never grows with traffic.
 */
import http from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * What the receiver did with a request on a webhook URL (`webhook_deliveries_total{outcome}`):
 * accepted (its workflow started), duplicate (refused by the engine as a repeat, answered 200),
 * empty (empty body, dropped), rejected (failed signature check), throttled (too many rejected in a
 * minute: 429, not recorded), unknown (no such trigger, wrong token, or not at work), too_large,
 * busy (body bytes in flight past the receiver's cap or the URL's share), timeout (no body byte for
 * BODY_IDLE_TIMEOUT_MS: 408), unavailable (Temporal or MongoDB did not answer), refused (any other 4xx),
 * handshake (a sender's check of the URL, answered as it expects: src/domain/senders/).
 */
const RECEIVER_OUTCOMES = [
  'accepted',
  'duplicate',
  'empty',
  'rejected',
  'throttled',
  'unknown',
  'too_large',
  'busy',
  'timeout',
  'unavailable',
  'refused',
  'handshake',
] as const;
export type ReceiverOutcome = (typeof RECEIVER_OUTCOMES)[number];

/** Seconds from a webhook request's arrival to its answer: most are a few ms; a start can take up to its deadline. */
const ACK_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface ReceiverMetrics {
  registry: Registry;
  deliveries: Counter<'outcome'>;
  ackDuration: Histogram;
  responses: Counter<'status'>;
  /** Answers of the management API, the codec endpoints and the dashboard, by HTTP status. */
  apiResponses: Counter<'status'>;
  /** Connections closed at once because MAX_CONNECTIONS were open. */
  connectionsRefused: Counter;
  /** Management requests refused for their credential (401), by why (src/workspaces/keys.ts). */
  credentialsRefused: Counter<'reason'>;
  /** Audit entries the database never took after every try (src/contract/route.ts): each is logged in full. */
  auditUnrecorded: Counter;
}

/** Why a management request's credential was refused: never which key or workspace (no caller is known). */
const CREDENTIAL_REFUSALS = ['missing', 'wrong', 'revoked', 'expired'] as const;

/**
 * How often the event loop's delay is sampled for `nodejs_eventloop_lag_*`: each sample is a timer
 * that wakes the process. prom-client's default, 10 ms, cost an idle process 9.4 ms of CPU a second
 * against 1.8 ms without the default metrics (measured 2026-11-26 here). At 1 s, with the MongoDB
 * pool's look at the same pace (POOL_CHECK_MS), an idle receiver spends 0.7–0.8 ms a second, against
 * 1.6–1.7 with sampling at 100 ms (measured 2026-11-26, evening). A stall of a second or more always
 * shows in the histogram; a shorter one does when it holds up a sample, so in proportion to its
 * length. What senders wait is `webhook_ack_duration_seconds`, and `nodejs_eventloop_lag_seconds` is
 * measured at each scrape.
 */
export const EVENT_LOOP_SAMPLE_MS = 1000;

/** The process's registry with Node's default metrics (CPU, memory, GC, event loop). */
function processMetrics(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  return registry;
}

export function receiverMetrics(): ReceiverMetrics {
  const registry = processMetrics();
  const deliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Requests on webhook URLs by what the receiver did with them',
    labelNames: ['outcome'],
    registers: [registry],
  });
  for (const outcome of RECEIVER_OUTCOMES) deliveries.inc({ outcome }, 0); // every series exists from the start
  const credentialsRefused = new Counter({
    name: 'api_credentials_refused_total',
    help: 'Management API requests refused for their credential (401), by reason',
    labelNames: ['reason'],
    registers: [registry],
  });
  for (const reason of CREDENTIAL_REFUSALS) credentialsRefused.inc({ reason }, 0);
  return {
    registry,
    deliveries,
    ackDuration: new Histogram({
      name: 'webhook_ack_duration_seconds',
      help: 'Time from a webhook request to its answer',
      buckets: ACK_BUCKETS,
      registers: [registry],
    }),
    responses: new Counter({
      name: 'webhook_responses_total',
      help: 'Answers on webhook URLs by HTTP status',
      labelNames: ['status'],
      registers: [registry],
    }),
    apiResponses: new Counter({
      name: 'api_responses_total',
      help: 'Answers of the management API, the codec endpoints and the dashboard, by HTTP status',
      labelNames: ['status'],
      registers: [registry],
    }),
    connectionsRefused: new Counter({
      name: 'receiver_connections_refused_total',
      help: 'Connections closed at once because MAX_CONNECTIONS were open',
      registers: [registry],
    }),
    credentialsRefused,
    auditUnrecorded: new Counter({
      name: 'audit_entries_unrecorded_total',
      help: 'Audit entries of management writes the database did not take after every try (each logged in full)',
      registers: [registry],
    }),
  };
}

/** How the worker's preparing of a delivery ended (`deliveries_prepared_total{outcome}`). */
const PREPARED_OUTCOMES = ['processed', 'filtered', 'dropped', 'failed'] as const;
/** How runs ended (`runs_total{status}`). */
const RUN_STATUSES = ['succeeded', 'failed'] as const;

export interface WorkerMetrics {
  registry: Registry;
  deliveriesPrepared: Counter<'outcome'>;
  runs: Counter<'status'>;
  csvRows: Counter;
  /** Robots the history keeper looks at every second and those it lets be (src/history/keeper.ts). */
  historyRobots: Gauge<'state'>;
}

export function workerMetrics(): WorkerMetrics {
  const registry = processMetrics();
  const deliveriesPrepared = new Counter({
    name: 'deliveries_prepared_total',
    help: 'Deliveries whose body the worker parsed, by outcome',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const runs = new Counter({
    name: 'runs_total',
    help: 'Runs that ended, by status',
    labelNames: ['status'],
    registers: [registry],
  });
  for (const outcome of PREPARED_OUTCOMES) deliveriesPrepared.inc({ outcome }, 0);
  for (const status of RUN_STATUSES) runs.inc({ status }, 0);
  return {
    registry,
    deliveriesPrepared,
    runs,
    csvRows: new Counter({ name: 'csv_rows_total', help: 'CSV rows made into runs', registers: [registry] }),
    historyRobots: new Gauge({
      name: 'history_keeper_robots',
      help: 'Robots the history keeper of this worker looks at every second (awake) or every minute (quiet)',
      labelNames: ['state'],
      registers: [registry],
    }),
  };
}

/**
 * The worker's metrics port: its own metrics, then those of the Temporal SDK's Prometheus exporter
 * (bound to loopback at `sdkMetricsUrl`), as one scrape. Only `GET /metrics` is answered.
 */
export function serveWorkerMetrics(
  metrics: WorkerMetrics,
  { port, host }: { port: number; host: string },
  sdkMetricsUrl?: string,
): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    void scrape(metrics, sdkMetricsUrl).then(
      (text) => res.writeHead(200, { 'Content-Type': metrics.registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
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
