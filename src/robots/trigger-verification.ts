/**
 * What a robot's trigger checks a request with, and reads it as: the payment provider connection's
 * signing secret, or its custom app's sender with its settings (the secret a handshake gave, once
 * confirmed, in place of the app's), its body format and its dedup choice. Read by the receiver's
 * trigger cache for every request, and by a replay of a refused delivery, which must verify now.
 */
import { appVerification, connectionSecret } from '../apps/apps';
import { triggerSecrets } from './handshake-secrets';
import { AUTO_DEDUP, type DedupChoice } from '../domain/dedup';
import type { SenderVerification } from '../domain/senders/parts';
import type { BodyFormat } from '../domain/types';
import type { RobotDoc } from '../storage/documents';
import type { Models } from '../storage/models';

export interface TriggerChecks {
  verification: SenderVerification | null;
  format: BodyFormat;
  dedup: DedupChoice;
  /** Secrets handshakes gave that no editor has confirmed (src/robots/handshake-secrets.ts). */
  pendingSecrets: string[];
}

export async function triggerChecks(
  models: Models,
  secretsKeys: readonly Buffer[],
  robot: Pick<RobotDoc, 'trigger'>,
): Promise<TriggerChecks> {
  let verification: SenderVerification | null = null;
  let format: BodyFormat = 'json';
  let dedup: DedupChoice = AUTO_DEDUP;
  if (robot.trigger.kind === 'stripe' && robot.trigger.connectionId) {
    const connection = await models.Connection.findById(robot.trigger.connectionId).lean();
    const secret = connection && connectionSecret(secretsKeys, connection);
    if (secret) verification = { scheme: 'stripe', secret };
  } else if (robot.trigger.kind === 'custom') {
    const app = await models.App.findById(robot.trigger.appId).lean();
    format = app?.bodyFormat ?? 'json';
    dedup = app?.dedup ?? AUTO_DEDUP;
    if (app) verification = appVerification(secretsKeys, app);
  }
  // A secret its sender gave in a handshake is the URL's, once an editor confirmed it (an app's, before 0.11).
  const secrets = triggerSecrets(secretsKeys, robot.trigger);
  if (verification && verification.scheme !== 'stripe' && secrets.confirmed !== undefined)
    verification = { ...verification, secret: secrets.confirmed };
  return { verification, format, dedup, pendingSecrets: secrets.pending };
}
