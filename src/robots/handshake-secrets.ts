/**
 * Secrets a sender gives in its handshake (Asana's `X-Hook-Secret`, Notion's verification token)
 * belong to the robot's URL, not to its app (two Asana webhooks on one app each have theirs), and
 * nobody but the app's people makes one active (review R1, docs/security.md):
 * - a handshake that gives a new secret is answered as its sender requires, and the secret is kept
 *   sealed as **pending**, with its fingerprint, when and from which address it came (at most
 *   PENDING_HANDSHAKE_SECRETS, newest kept); the audit log records it;
 * - an event signed with a pending secret makes no run: it is refused (the sender retries) and
 *   the deliveries log names the pending secret's fingerprint;
 * - an editor confirms one pending secret (an audited write): it becomes the URL's, the others go.
 *   A later handshake with the same secret is answered as before; another is pending again, and
 *   the confirmed one stays until an editor confirms the new one.
 * Apps that learned a secret before 0.11 keep it as the app's, used by each of its robots until
 * one of theirs is confirmed.
 */
import { createHash } from 'node:crypto';
import { decryptSecret, encryptSecret } from '../domain/secrets';
import { PENDING_HANDSHAKE_SECRETS } from '../domain/limits';
import { conflict } from '../core/http-errors';
import type { HandshakeSecretDoc, RobotDoc } from '../storage/documents';
import type { Models } from '../storage/models';

/** What keeping and confirming secrets needs: the robots, the key new secrets are sealed with, every key. */
export interface HandshakeSecretsDeps {
  models: Models;
  secretsKey: Buffer;
  secretsKeys: readonly Buffer[];
}

/** How a secret is shown and named: `sha256:` and the first 16 hex digits of its SHA-256 (not reversible). */
export function secretFingerprint(secret: string): string {
  return `sha256:${createHash('sha256').update(secret).digest('hex').slice(0, 16)}`;
}

/** The URL's secrets as the receiver checks with them: the confirmed one and the pending ones. */
export function triggerSecrets(
  secretsKeys: readonly Buffer[],
  trigger: RobotDoc['trigger'],
): { confirmed: string | undefined; pending: string[] } {
  return {
    confirmed: trigger.handshakeSecret ? decryptSecret(secretsKeys, trigger.handshakeSecret.sealed) : undefined,
    pending: (trigger.pendingHandshakeSecrets ?? []).map((p) => decryptSecret(secretsKeys, p.sealed)),
  };
}

/** What a handshake's secret became: new and pending, pending already, or the URL's confirmed one. */
export type Offered = 'pending' | 'pending-already' | 'confirmed-already';

/**
 * Keeps a secret a handshake gave as pending on the robot's URL (unless it is the confirmed one
 * or pending already), once `recorded` (the audit log's entry) has been written: a secret is never
 * kept unrecorded. Read and written by `_id`; two handshakes at the same moment may keep one of
 * them (the other sender's retry brings it again).
 */
export async function offerHandshakeSecret(
  { models, secretsKey, secretsKeys }: HandshakeSecretsDeps,
  robotId: string,
  secret: string,
  from: { address: string; at: Date },
  recorded: () => Promise<void>,
): Promise<Offered | null> {
  const robot = await models.Robot.findById(robotId).lean();
  if (!robot) return null;
  const fingerprint = secretFingerprint(secret);
  const { confirmed } = triggerSecrets(secretsKeys, robot.trigger);
  if (confirmed !== undefined && secretFingerprint(confirmed) === fingerprint) return 'confirmed-already';
  const pending = robot.trigger.pendingHandshakeSecrets ?? [];
  if (pending.some((p) => p.fingerprint === fingerprint)) return 'pending-already';
  const offered: HandshakeSecretDoc = {
    sealed: encryptSecret(secretsKey, secret),
    fingerprint,
    receivedAt: from.at,
    address: from.address,
  };
  await recorded();
  const kept = [...pending, offered].slice(-PENDING_HANDSHAKE_SECRETS);
  await models.Robot.updateOne({ _id: robotId }, { $set: { 'trigger.pendingHandshakeSecrets': kept } });
  return 'pending';
}

/**
 * An editor confirms the pending secret of this fingerprint: it becomes the URL's, the other
 * pending ones are dropped. Returns the secret (Notion's token is shown once, to paste back);
 * 409 when no pending secret has that fingerprint.
 */
export async function confirmHandshakeSecret(
  { models, secretsKeys }: HandshakeSecretsDeps,
  robot: RobotDoc,
  fingerprint: string,
): Promise<{ robot: RobotDoc; secret: string }> {
  const chosen = (robot.trigger.pendingHandshakeSecrets ?? []).find((p) => p.fingerprint === fingerprint);
  if (!chosen) throw conflict(`no secret given in a handshake is waiting with the fingerprint ${fingerprint}`);
  const handshakeSecret: HandshakeSecretDoc = { ...chosen, confirmedAt: new Date() };
  const updated = await models.Robot.findByIdAndUpdate(
    robot._id,
    { $set: { 'trigger.handshakeSecret': handshakeSecret, 'trigger.pendingHandshakeSecrets': [] } },
    { returnDocument: 'after' },
  ).lean();
  if (!updated) throw conflict('the robot is gone');
  return { robot: updated, secret: decryptSecret(secretsKeys, chosen.sealed) };
}

/** A kept secret as the card shows it to editors: never the secret, its fingerprint and where it came from. */
export function handshakeSecretView({ fingerprint, receivedAt, address, confirmedAt }: HandshakeSecretDoc) {
  return { fingerprint, receivedAt, address, ...(confirmedAt ? { confirmedAt } : {}) };
}
