/**
 * Prometheus metrics (prom-client): `GET /metrics` on the receiver, and the worker's metrics port
 * (WORKER_METRICS_PORT), which also carries the Temporal SDK's own worker metrics.
 *
 * Names follow Prometheus' conventions: every metric of the service under `webhooks_`, base units in
 * the name (`_seconds`), counters ending `_total`, HTTP statuses under `code`. docs/operations.md's
 * table is generated from these registries (scripts/metrics-table.ts; test/unit/metrics-table.test.ts
 * fails when it differs).
 *
 * Contract: a label holds one value of a small, closed set named here (an outcome, a status code,
 * a run status), never an id, a token, a path or anything a sender chooses, so a scrape is safe to
 * show anyone and its size never grows with traffic. `webhooks_build_info`'s labels are the process's
 * own (version, revision, Node), one series per process.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { buildInfo } from './build-info';
import { ISSUE_KINDS } from '../domain/issues';

/**
 * What the receiver did with a request on a webhook URL (`webhooks_deliveries_total{outcome}`):
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

/** How a notification to one channel ended (`webhooks_notifications_total`): every attempt made, or none left. */
const NOTIFICATION_OUTCOMES = ['delivered', 'failed'] as const;
/** The channels' kinds (src/domain/notifications.ts). */
const CHANNEL_KINDS = ['webhook', 'slack', 'email'] as const;
export type NotificationCounter = Counter<'channel_kind' | 'outcome'>;

/**
 * `webhooks_notifications_total{channel_kind,outcome}`: notifications of issues, by how they ended
 * (the worker's, after their last attempt), and tests of a channel (the receiver's, who sends them).
 */
function notificationCounter(registry: Registry): NotificationCounter {
  const counter = new Counter({
    name: 'webhooks_notifications_total',
    help: 'Notifications to channels (issues in the worker, tests in the receiver), by channel kind and outcome',
    labelNames: ['channel_kind', 'outcome'],
    registers: [registry],
  });
  closedSet(counter, 'channel_kind', CHANNEL_KINDS, { zero: false });
  closedSet(counter, 'outcome', NOTIFICATION_OUTCOMES, { zero: false });
  return counter;
}

export interface ReceiverMetrics {
  registry: Registry;
  /** Tests of notification channels (src/notifications/channels.ts). */
  notifications: NotificationCounter;
  deliveries: Counter<'outcome'>;
  ackDuration: Histogram;
  responses: Counter<'code'>;
  /** Answers of the management API, the codec endpoints and the dashboard, by HTTP status. */
  apiResponses: Counter<'code'>;
  /** Connections closed unanswered past MAX_CONNECTIONS or MAX_CONNECTIONS_PER_ADDRESS (receiver/connections.ts). */
  connectionsRefused: Counter;
  /** Management requests refused for their credential (401), by why (src/workspaces/keys.ts). */
  credentialsRefused: Counter<'reason'>;
  /** Audit entries the database never took after every try (src/contract/route.ts): each is logged in full. */
  auditUnrecorded: Counter;
  /** Issues whose status is open, of every workspace, by kind: read at a scrape (src/issues/open-gauge.ts). */
  issuesOpen: Gauge<'kind'>;
}

/** Why a management request's credential was refused: never which key or workspace (no caller is known). */
const CREDENTIAL_REFUSALS = ['missing', 'wrong', 'revoked', 'expired'] as const;

/**
 * How often the event loop's delay is sampled for `nodejs_eventloop_lag_*`: each sample is a timer
 * that wakes the process. prom-client's default, 10 ms, cost an idle process 9.4 ms of CPU a second
 * against 1.8 ms without the default metrics (measured 2026-11-26 here). At 1 s, with the MongoDB
 * pool's look at the same pace then, an idle receiver spent 0.7–0.8 ms a second, against 1.6–1.7
 * with sampling at 100 ms (measured 2026-11-26, evening); the pool looks every 100 ms again since
 * mongoose 9 (src/storage/connect.ts). A stall of a second or more always
 * shows in the histogram; a shorter one does when it holds up a sample, so in proportion to its
 * length. What senders wait is `webhooks_ack_duration_seconds`, and `nodejs_eventloop_lag_seconds` is
 * measured at each scrape.
 */
export const EVENT_LOOP_SAMPLE_MS = 1000;

/** The process's registry with Node's default metrics (CPU, memory, GC, event loop). */
function processMetrics(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  return registry;
}

/**
 * The closed set of a label's values, as docs/operations.md's table lists them (scripts/metrics-table.ts),
 * each series at 0 from the start when `zero` (a rate needs the series before its first count).
 */
const closedSets = new WeakMap<object, Record<string, readonly string[]>>();
function closedSet<T extends string>(
  metric: { inc(labels: Partial<Record<T, string>>, value?: number): void },
  label: T,
  values: readonly string[],
  { zero }: { zero: boolean },
): void {
  closedSets.set(metric, { ...closedSets.get(metric), [label]: values });
  if (zero) for (const value of values) metric.inc({ [label]: value } as Partial<Record<T, string>>, 0);
}

/** The label values a metric of these registries takes from a closed set ({} when none). */
export function closedLabelValues(metric: object): Record<string, readonly string[]> {
  return closedSets.get(metric) ?? {};
}

/** `webhooks_build_info` (1): what the process runs, the usual way to see versions during a rolling upgrade. */
function registerBuildInfo(registry: Registry): void {
  const { version, revision, nodeVersion } = buildInfo();
  new Gauge({
    name: 'webhooks_build_info',
    help: 'Always 1: what the process runs (package.json version, git revision or unknown, Node version)',
    labelNames: ['version', 'revision', 'node_version'],
    registers: [registry],
  }).set({ version, revision, node_version: nodeVersion }, 1);
}

export function receiverMetrics(): ReceiverMetrics {
  const registry = processMetrics();
  registerBuildInfo(registry);
  const deliveries = new Counter({
    name: 'webhooks_deliveries_total',
    help: 'Requests on webhook URLs, by what the receiver did with them',
    labelNames: ['outcome'],
    registers: [registry],
  });
  closedSet(deliveries, 'outcome', RECEIVER_OUTCOMES, { zero: true });
  const credentialsRefused = new Counter({
    name: 'webhooks_api_credentials_refused_total',
    help: 'Management API requests refused for their credential (401), by reason',
    labelNames: ['reason'],
    registers: [registry],
  });
  closedSet(credentialsRefused, 'reason', CREDENTIAL_REFUSALS, { zero: true });
  const issuesOpen = new Gauge({
    name: 'webhooks_issues_open',
    help: 'Issues open (not acknowledged, not resolved) of all workspaces, by kind; every receiver tells the same',
    labelNames: ['kind'],
    registers: [registry],
  });
  // Set at each scrape from the issues themselves (src/issues/open-gauge.ts).
  closedSet(issuesOpen, 'kind', ISSUE_KINDS, { zero: false });
  return {
    registry,
    notifications: notificationCounter(registry),
    deliveries,
    ackDuration: new Histogram({
      name: 'webhooks_ack_duration_seconds',
      help: 'Time from a request on a webhook URL to its answer',
      buckets: ACK_BUCKETS,
      registers: [registry],
    }),
    responses: new Counter({
      name: 'webhooks_delivery_responses_total',
      help: 'Answers on webhook URLs, by HTTP status code',
      labelNames: ['code'],
      registers: [registry],
    }),
    apiResponses: new Counter({
      name: 'webhooks_api_responses_total',
      help: 'Answers of the management API, the codec endpoints and the dashboard, by HTTP status code',
      labelNames: ['code'],
      registers: [registry],
    }),
    connectionsRefused: new Counter({
      name: 'webhooks_connections_refused_total',
      help: 'Connections closed unanswered because MAX_CONNECTIONS (or MAX_CONNECTIONS_PER_ADDRESS) were open',
      registers: [registry],
    }),
    credentialsRefused,
    auditUnrecorded: new Counter({
      name: 'webhooks_audit_entries_unrecorded_total',
      help: 'Audit entries of management writes the database did not take after every try (each logged in full)',
      registers: [registry],
    }),
    issuesOpen,
  };
}

/** How the worker's preparing of a delivery ended (`webhooks_deliveries_prepared_total{outcome}`). */
const PREPARED_OUTCOMES = ['processed', 'filtered', 'dropped', 'failed'] as const;
/** How runs ended (`webhooks_runs_total{status}`). */
const RUN_STATUSES = ['succeeded', 'failed'] as const;
/** The history keeper's two paces (`webhooks_history_keeper_robots{state}`). */
const KEEPER_STATES = ['awake', 'quiet'] as const;

export interface WorkerMetrics {
  registry: Registry;
  deliveriesPrepared: Counter<'outcome'>;
  runs: Counter<'status'>;
  csvRows: Counter;
  /** Robots the history keeper looks at every second and those it lets be (src/history/keeper.ts). */
  historyRobots: Gauge<'state'>;
  /** Notifications of issues, after their last attempt (src/notifications/). */
  notifications: NotificationCounter;
}

export function workerMetrics(): WorkerMetrics {
  const registry = processMetrics();
  registerBuildInfo(registry);
  const deliveriesPrepared = new Counter({
    name: 'webhooks_deliveries_prepared_total',
    help: 'Deliveries whose body the worker parsed, by outcome (a retried preparation counts again)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const runs = new Counter({
    name: 'webhooks_runs_total',
    help: 'Runs that ended, by status',
    labelNames: ['status'],
    registers: [registry],
  });
  closedSet(deliveriesPrepared, 'outcome', PREPARED_OUTCOMES, { zero: true });
  closedSet(runs, 'status', RUN_STATUSES, { zero: true });
  const historyRobots = new Gauge({
    name: 'webhooks_history_keeper_robots',
    help: 'Robots the history keeper of this worker looks at each second (awake), or each minute and on marks (quiet)',
    labelNames: ['state'],
    registers: [registry],
  });
  // No series until the keeper's first pass: "not counted yet" is not "none awake" (bench/phases/idle-robots.ts).
  closedSet(historyRobots, 'state', KEEPER_STATES, { zero: false });
  return {
    registry,
    deliveriesPrepared,
    runs,
    csvRows: new Counter({ name: 'webhooks_csv_rows_total', help: 'CSV rows made into runs', registers: [registry] }),
    historyRobots,
    notifications: notificationCounter(registry),
  };
}
