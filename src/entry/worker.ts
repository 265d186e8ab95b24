/** Worker process: runs the delivery and run workflows and their activities. */
import { DefaultLogger, NativeConnection, Runtime, type LogLevel } from '@temporalio/worker';
import { loadConfig, requireServers } from '../config';
import { createLogger } from '../log';
import { connectDatabase } from '../models';
import { createWorker } from '../worker';
import { startHistoryKeeper } from '../history/keeper';
import { runMain } from './main';

runMain('worker', async () => {
  const config = loadConfig();
  const { temporalAddress, mongodbUri } = requireServers(config);
  const log = createLogger('worker', config.logLevel);
  Runtime.install({ logger: new DefaultLogger(config.logLevel.toUpperCase() as LogLevel) });
  const { db, models } = await connectDatabase(mongodbUri);
  const connection = await NativeConnection.connect({ address: temporalAddress });
  const worker = await createWorker({ connection, namespace: config.temporal.namespace, taskQueue: config.temporal.taskQueue, models });
  const keeper = startHistoryKeeper({ models, retentionMs: config.historyRetentionMs, log });
  log.info(`polling task queue ${config.temporal.taskQueue}`);
  // The SDK's runtime shuts the worker down gracefully on SIGINT and SIGTERM.
  await worker.run();
  await keeper.stop();
  await connection.close();
  await db.close();
});
