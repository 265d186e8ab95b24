/**
 * The two processes of the service, each composed by one function that every launcher and test
 * kit calls (src/entry/receiver.ts and worker.ts, test/support/stack.ts), so the tests run the
 * receiver and worker production runs:
 *
 * - the **receiver**: the HTTP service (webhooks, management API, codec endpoints) and its metrics
 *   port; it seals tokens an older version kept in clear, sweeps bodies of starts that never
 *   happened, and registers the search attributes;
 * - the **worker**: the delivery and run workflows and their activities, and the history keeper
 *   (HISTORY_KEEPER), told of the runs that end in it (src/history/heard-outcomes.ts).
 *
 * Neither installs the Temporal SDK's runtime (logs and metrics of a whole process): their
 * process does that once.
 */
import { nameAppSenders } from '../apps/apps';
import type { Client } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import type { Connection } from 'mongoose';
import { listenReceiver, type Listening } from './app';
import type { Config } from '../core/config';
import { startBodySweep } from '../deliveries/body-sweep';
import { HeardOutcomes } from '../history/heard-outcomes';
import { startHistoryKeeper, type HistoryKeeper } from '../history/keeper';
import type { Logger } from '../core/log';
import type { ReceiverMetrics, WorkerMetrics } from '../core/metrics';
import { sealPlainTokens } from '../robots/trigger-tokens';
import { registerSearchAttributes } from '../temporal/search-attribute-setup';
import type { Models } from '../storage/models';
import { connectWorker, createTemporalClient, dataConverter, workerClient } from '../temporal/client';
import { issueNotifier } from '../notifications/start';
import { createWorker } from './worker';
import { IssueCounter, type IssueOpened } from '../issues/counter';
import { workerHealth, type WorkerHealth } from './worker-metrics-port';

interface ReceiverProcess {
  temporal: Client;
  listening: Listening;
  /**
   * Stops sweeping, answers the requests under way and stops listening (src/runtime/drain.ts), and
   * closes its Temporal client (not the database it was given).
   */
  close(): Promise<void>;
}

/** Starts a receiver on the database `db` (`models`): it listens once this resolves. */
export async function startReceiver(
  config: Config,
  { db, models }: { db: Connection; models: Models },
  log: Logger,
  opts: {
    metrics?: ReceiverMetrics;
    /** Ports and host instead of PORT and RECEIVER_METRICS_PORT (listenReceiver). */
    listen?: { port?: number; metricsPort?: number | null; host?: string };
    /** Starts the notification of an issue its counter opened or reopened (src/issues/counter.ts). */
    onIssueOpened?: IssueOpened;
  } = {},
): Promise<ReceiverProcess> {
  const sealed = await sealPlainTokens(models, config.secretsKey);
  if (sealed > 0) log.info('sealed webhook tokens kept in clear by an earlier version', { count: sealed });
  const named = await nameAppSenders({ models, secretsKeys: config.secretsKeys });
  if (named > 0) log.info('named the sender of apps saved by an earlier version', { count: named });
  // A close cancels the client's calls in flight that have no deadline (the registration's).
  const stopping = new AbortController();
  const temporal = createTemporalClient(config, stopping.signal);
  const { metrics } = opts;
  // An issue this receiver's counter opens is notified through its own client (src/notifications/start.ts).
  const onIssueOpened = opts.onIssueOpened ?? issueNotifier({ temporal, config });
  const listening = await listenReceiver({ config, db, models, temporal, log, metrics, onIssueOpened }, opts.listen);
  const sweep = startBodySweep(models, temporal, log);
  // Asked again while Temporal does not answer.
  const registered = registerSearchAttributes(
    temporal.connection,
    config.temporal.namespace,
    log,
    stopping.signal,
  ).catch(() => undefined);
  return {
    temporal,
    listening,
    async close() {
      sweep.stop();
      await listening.close();
      stopping.abort();
      await registered;
      await temporal.connection.close();
    },
  };
}

export interface WorkerProcess {
  worker: Worker;
  /** The history keeper, when HISTORY_KEEPER is on. */
  keeper: HistoryKeeper | null;
  /** Outcomes of runs that ended here, as the keeper hears them. */
  heard: HeardOutcomes | undefined;
  /** Runs until the worker is shut down (by the SDK's runtime on SIGINT and SIGTERM, or `stop`). */
  run(): Promise<void>;
  /** Shuts the worker down, waits for it and the keeper, and closes its Temporal connection. */
  stop(): Promise<void>;
  /** What its metrics port's `GET /healthz` says (src/runtime/worker-metrics-port.ts). */
  health(): Promise<WorkerHealth>;
}

/** Composes a worker on `models`; it polls once `run` is called. */
export async function startWorker(
  config: Config,
  models: Models,
  log: Logger,
  opts: { metrics: WorkerMetrics; heard?: HeardOutcomes; workflowBundlePath?: string; onIssueOpened?: IssueOpened },
): Promise<WorkerProcess> {
  const connection: NativeConnection = await connectWorker(config);
  await registerSearchAttributes(connection, config.temporal.namespace, log);
  // Runs that end here are told to this process's keeper, which then need not read them back.
  const heard = config.historyKeeper ? (opts.heard ?? new HeardOutcomes()) : undefined;
  // The worker's client for starting notifications rides its connection, its payloads sealed as a receiver's.
  const notifications = { temporal: workerClient(connection, config), config };
  // One a process: failed deliveries and runs counted in memory, written once a second, and on stop.
  const onOpened = opts.onIssueOpened ?? issueNotifier(notifications);
  const issues = new IssueCounter({ models, log, notifyIntervalMs: config.issueNotifyIntervalMs, onOpened });
  const worker = await createWorker({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    models,
    metrics: opts.metrics,
    caps: config.deliveryCaps,
    features: config.runFeatures,
    preparation: config.preparation,
    // The workflows refuse a payload nobody sealed (src/domain/unsealed.ts).
    dataConverter: dataConverter(config, { sealedOnly: true }),
    workflowTasks: config.workerWorkflowTasks,
    workflowBundlePath: opts.workflowBundlePath,
    heard,
    issues,
    notify: { settings: config.notifications, secretsKeys: config.secretsKeys },
  });
  const keeper = config.historyKeeper
    ? startHistoryKeeper({
        models,
        retentionMs: config.historyRetentionMs,
        log,
        heard,
        robotsGauge: opts.metrics.historyRobots,
      })
    : null;
  let running: Promise<void> | undefined;
  const run = () => (running ??= worker.run());
  return {
    worker,
    keeper,
    heard,
    run,
    health: workerHealth(worker, connection),
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await keeper?.stop();
      await issues.stop();
      await connection.close();
    },
  };
}
