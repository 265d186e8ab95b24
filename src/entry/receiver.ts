/** Receiver process: the HTTP service (webhooks, management API, health). */
import { createApp } from '../app';
import { loadConfig, requireServers } from '../config';
import { KEEP_ALIVE_TIMEOUT_MS } from '../http';
import { createLogger } from '../log';
import { connectDatabase } from '../storage/models';
import { createTemporalClient } from '../temporal';
import { startBodySweep } from '../receiver/body-sweep';
import { sealPlainTokens } from '../robots/trigger-tokens';
import { registerSearchAttributes } from '../search-attribute-setup';
import { onShutdown, runMain } from './main';

runMain('receiver', async () => {
  const config = loadConfig();
  const { temporalAddress, mongodbUri } = requireServers(config);
  const log = createLogger('receiver', config.logLevel, { format: config.logFormat });
  const { db, models } = await connectDatabase(mongodbUri);
  const sealed = await sealPlainTokens(models, config.secretsKey);
  if (sealed > 0) log.info('sealed webhook tokens kept in clear by an earlier version', { count: sealed });
  const temporal = createTemporalClient(temporalAddress, config.temporal.namespace);
  const server = createApp({ config, db, models, temporal, log }).listen(config.port);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  await new Promise<void>((resolve) => server.once('listening', resolve));
  log.info(`listening on port ${config.port}`);
  const sweep = startBodySweep(models, temporal, log);
  void registerSearchAttributes(temporal.connection, config.temporal.namespace, log);
  onShutdown(async () => {
    sweep.stop();
    await new Promise((resolve) => server.close(resolve));
    await db.close();
  });
});
