/** Worker process: runs the delivery and run workflows and their activities, and the history keeper. */
import { Runtime } from '@temporalio/worker';
import { connectWorker, dataConverter } from '../temporal';
import { loadConfig, requireServers } from '../config';
import { createLogger } from '../log';
import { serveWorkerMetrics, workerMetrics } from '../metrics';
import { connectDatabase } from '../storage/models';
import { sdkLogger } from '../sdk-log';
import { registerSearchAttributes } from '../search-attribute-setup';
import { createWorker } from '../worker';
import { startHistoryKeeper } from '../history/keeper';
import { HeardOutcomes } from '../history/heard-outcomes';
import { runMain } from './main';

runMain('worker', async () => {
  const config = loadConfig();
  const { mongodbUri } = requireServers(config);
  const log = createLogger('worker', config.logLevel, { format: config.logFormat });
  const metrics = workerMetrics();
  const sdkMetrics = config.workerMetricsPort > 0 ? `127.0.0.1:${config.sdkMetricsPort}` : undefined;
  Runtime.install({
    logger: sdkLogger(log),
    telemetryOptions: sdkMetrics ? { metrics: { prometheus: { bindAddress: sdkMetrics } } } : undefined,
  });
  const { db, models } = await connectDatabase(mongodbUri);
  const connection = await connectWorker(config);
  await registerSearchAttributes(connection, config.temporal.namespace, log);
  // Runs that end here are told to this process's keeper, which then need not read them back.
  const heard = config.historyKeeper ? new HeardOutcomes() : undefined;
  const worker = await createWorker({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    models,
    metrics,
    caps: config.deliveryCaps,
    features: config.runFeatures,
    dataConverter: dataConverter(config),
    heard,
  });
  const keeper = config.historyKeeper
    ? startHistoryKeeper({ models, retentionMs: config.historyRetentionMs, log, heard })
    : null;
  const metricsServer = sdkMetrics
    ? await serveWorkerMetrics(metrics, config.workerMetricsPort, `http://${sdkMetrics}/metrics`)
    : null;
  log.info(`polling task queue ${config.temporal.taskQueue}`, { metricsPort: config.workerMetricsPort || null });
  // The SDK's runtime shuts the worker down gracefully on SIGINT and SIGTERM.
  await worker.run();
  metricsServer?.close();
  await keeper?.stop();
  await connection.close();
  await db.close();
});
