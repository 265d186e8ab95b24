/**
 * `npm run reseal`: seals every stored secret again with SECRETS_KEY (src/storage/reseal.ts), so
 * that the keys in SECRETS_KEY_PREVIOUS can be dropped from what the store holds. Run it with the
 * service's settings, while the service runs (the embedded store is reached on its socket in
 * DATA_DIR, MONGODB_URI otherwise).
 */
import { loadConfig } from '../core/config';
import { ferretDbUri } from '../launch/servers/dev-servers';
import { connectDatabase } from '../storage/connect';
import { resealSecrets } from '../storage/reseal';
import { runMain } from './main';

runMain('reseal', async () => {
  const config = loadConfig();
  const { db, models } = await connectDatabase(config.mongodbUri ?? ferretDbUri(config.dataDir));
  try {
    const resealed = await resealSecrets(models, config.secretsKeys);
    process.stdout.write(
      `Sealed again with SECRETS_KEY: ${resealed.appVerifications} app verifications, ` +
        `${resealed.connectionSecrets} connection signing secrets, ${resealed.urlTokens} URL tokens, ` +
        `${resealed.channelSecrets} notification channel secrets.\n` +
        'No stored secret needs SECRETS_KEY_PREVIOUS any more. Keep it for the payloads in Temporal until the ' +
        "deliveries sealed under it are done and past the namespace's retention (72 h).\n",
    );
  } finally {
    await db.close();
  }
});
