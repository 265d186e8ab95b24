/** Worker process: runs the delivery and run workflows and their activities, and the history keeper. */
import { Runtime } from '@temporalio/worker';
import { loadConfig, requireServers } from '../core/config';
import { createLogger } from '../core/log';
import { workerMetrics } from '../core/metrics';
import { startWorker } from '../runtime/processes';
import { serveWorkerMetrics } from '../runtime/worker-metrics-port';
import { giveWayOnCpu } from '../launch/os/worker-priority';
import { sdkLogger } from '../temporal/sdk-log';
import { connectDatabase } from '../storage/connect';
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
  const worker = await startWorker(config, models, log, { metrics });
  const metricsServer = sdkMetrics
    ? await serveWorkerMetrics(
        metrics,
        { port: config.workerMetricsPort, host: config.metricsHost },
        { sdkMetricsUrl: `http://${sdkMetrics}/metrics`, health: () => worker.health() },
      )
    : null;
  // Once the SDK's and the workflow threads exist: acks come before runs on a shared machine.
  giveWayOnCpu(config.workerNice, log);
  log.info(`polling task queue ${config.temporal.taskQueue}`, {
    metricsPort: config.workerMetricsPort || null,
    nice: config.workerNice,
  });
  // The SDK's runtime shuts the worker down gracefully on SIGINT and SIGTERM.
  await worker.run();
  metricsServer?.close();
  await worker.stop();
  await db.close();
});
