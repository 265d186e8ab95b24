/** Receiver process: the HTTP service (webhooks, management API, codec endpoints) and its metrics port. */
import { loadConfig, requireServers } from '../core/config';
import { createLogger } from '../core/log';
import { startReceiver } from '../runtime/processes';
import { connectDatabase } from '../storage/connect';
import { onShutdown, runMain } from './main';

runMain('receiver', async () => {
  const config = loadConfig();
  const { mongodbUri } = requireServers(config);
  const log = createLogger('receiver', config.logLevel, { format: config.logFormat });
  const database = await connectDatabase(mongodbUri);
  const receiver = await startReceiver(config, database, log);
  const { port, metricsPort } = receiver.listening;
  log.info(`listening on port ${port}`, { metricsPort });
  onShutdown(async () => {
    await receiver.close();
    await database.db.close();
  });
});
