/**
 * Re-sealing (`npm run reseal`, docs/security.md, Changing SECRETS_KEY): every secret the store
 * keeps sealed, an app's verification, a payment provider connection's signing secret, a URL's
 * token and a webhook notification channel's secret, sealed with a key named in SECRETS_KEY_PREVIOUS
 * is sealed again with SECRETS_KEY, so that the previous key can be dropped and whoever holds it no
 * longer opens them. Those sealed with SECRETS_KEY already are left as they are, so it can be run
 * again at any time. Each is written
 * only if it is still what was read (an edit made meanwhile is kept).
 */
import type { Model } from 'mongoose';
import { encryptSecret, openSecret } from '../domain/secrets';
import type { Models } from './models';

/** How many secrets were sealed again, by kind. */
interface Resealed {
  appVerifications: number;
  connectionSecrets: number;
  urlTokens: number;
  channelSecrets: number;
}

/** Seals again with `keys[0]` every secret of one field that another of `keys` sealed. */
async function resealField(model: Model<never>, field: string, keys: readonly Buffer[]): Promise<number> {
  const docs = await model.collection.find({ [field]: { $type: 'string' } }, { projection: { [field]: 1 } }).toArray();
  let resealed = 0;
  for (const doc of docs) {
    const sealed = field.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], doc) as string;
    const { plain, keyIndex } = openSecret(keys, sealed);
    if (keyIndex === 0) continue;
    const filter = { _id: doc._id, [field]: sealed };
    const written = await model.collection.updateOne(filter, { $set: { [field]: encryptSecret(keys[0], plain) } });
    resealed += written.modifiedCount;
  }
  return resealed;
}

/** Seals every stored secret with SECRETS_KEY (`keys[0]`); `keys`: it, then the previous ones. */
export async function resealSecrets(models: Models, keys: readonly Buffer[]): Promise<Resealed> {
  return {
    appVerifications: await resealField(models.App as unknown as Model<never>, 'verificationSealed', keys),
    connectionSecrets: await resealField(models.Connection as unknown as Model<never>, 'signingSecretSealed', keys),
    urlTokens: await resealField(models.Robot as unknown as Model<never>, 'trigger.tokenSealed', keys),
    channelSecrets: await resealField(models.NotificationChannel as unknown as Model<never>, 'secretSealed', keys),
  };
}
