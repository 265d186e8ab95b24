/** Receiver process: the HTTP service (webhooks, management API, codec endpoints) and its metrics port. */
import { listenReceiver } from '../app';
import { loadConfig, requireServers } from '../config';
import { createLogger } from '../log';
import { connectDatabase } from '../storage/models';
import { createTemporalClient } from '../temporal';
import { startBodySweep } from '../receiver/body-sweep';
import { sealPlainTokens } from '../robots/trigger-tokens';
import { registerSearchAttributes } from '../search-attribute-setup';
import { onShutdown, runMain } from './main';

runMain('receiver', async () => {
  const config = loadConfig();
  const { mongodbUri } = requireServers(config);
  const log = createLogger('receiver', config.logLevel, { format: config.logFormat });
  const { db, models } = await connectDatabase(mongodbUri);
  const sealed = await sealPlainTokens(models, config.secretsKey);
  if (sealed > 0) log.info('sealed webhook tokens kept in clear by an earlier version', { count: sealed });
  const temporal = createTemporalClient(config);
  const listening = await listenReceiver({ config, db, models, temporal, log });
  log.info(`listening on port ${listening.port}`, { metricsPort: listening.metricsPort });
  const sweep = startBodySweep(models, temporal, log);
  void registerSearchAttributes(temporal.connection, config.temporal.namespace, log);
  onShutdown(async () => {
    sweep.stop();
    await listening.close();
    await db.close();
  });
});
