/**
 * The token in a trigger's URL, the one credential a sender needs (spec §5). It is stored twice,
 * never in clear: its SHA-256, which the receiver compares, and the token sealed with SECRETS_KEY,
 * which only the card's URL opens. Rotating it (POST /api/robots/:id/trigger/rotate) keeps the
 * identifier, makes a new token and keeps accepting the old one until its grace period ends.
 *
 * Robots put to work before tokens were hashed kept the token in clear (`trigger.token`); the
 * receiver seals them at start (`sealPlainTokens`), and until then they are compared as they are.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { decryptSecret, encryptSecret, newToken } from '../domain/secrets';
import type { RobotDoc } from '../storage/documents';
import type { Models } from '../storage/models';

type Trigger = RobotDoc['trigger'];

/** What the receiver keeps of a trigger's tokens: hashes and the old token's end, never a token. */
export interface TokenHashes {
  current: Buffer;
  previous: { hash: Buffer; expiresAt: number } | null;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest();

/** A new token, and the fields that store it. */
export function newTokenFields(key: Buffer): { token: string; tokenHash: string; tokenSealed: string } {
  const token = newToken();
  return { token, tokenHash: hashOf(token).toString('hex'), tokenSealed: encryptSecret(key, token) };
}

/** The trigger's token hashes, or null when it has no token yet (a robot never put to work). */
export function tokenHashes(trigger: Trigger): TokenHashes | null {
  const current = trigger.tokenHash ? Buffer.from(trigger.tokenHash, 'hex') : trigger.token && hashOf(trigger.token);
  if (!current) return null;
  const previous =
    trigger.previousTokenHash && trigger.previousTokenExpiresAt
      ? { hash: Buffer.from(trigger.previousTokenHash, 'hex'), expiresAt: trigger.previousTokenExpiresAt.getTime() }
      : null;
  return { current, previous };
}

/** Whether a URL's token opens the trigger: the current one, or the previous one within its grace. */
export function tokenAccepted(hashes: TokenHashes, token: string, now = Date.now()): boolean {
  const given = hashOf(token);
  const current = timingSafeEqual(given, hashes.current);
  const previous = hashes.previous !== null && timingSafeEqual(given, hashes.previous.hash);
  return current || (previous && now < hashes.previous!.expiresAt);
}

/** The token the card's URL shows, or null before the robot is first put to work. */
export function cardToken(keys: readonly Buffer[], trigger: Trigger): string | null {
  if (trigger.tokenSealed) return decryptSecret(keys, trigger.tokenSealed);
  return trigger.token ?? null;
}

/** Seals every token still kept in clear (robots put to work before tokens were hashed). */
export async function sealPlainTokens(models: Models, key: Buffer): Promise<number> {
  const robots = await models.Robot.find({ 'trigger.token': { $type: 'string' } }, { trigger: 1 }).lean();
  for (const robot of robots) {
    const token = robot.trigger.token!;
    await models.Robot.updateOne(
      { _id: robot._id },
      {
        $set: { 'trigger.tokenHash': hashOf(token).toString('hex'), 'trigger.tokenSealed': encryptSecret(key, token) },
        $unset: { 'trigger.token': 1 },
      },
    );
  }
  return robots.length;
}

/**
 * Gives the trigger a new token and keeps the current one working for `graceHours` (0: not at
 * all). A rotation during a grace period ends the older token's grace at once.
 */
export async function rotateToken(models: Models, key: Buffer, robot: RobotDoc, graceHours: number): Promise<void> {
  const hashes = tokenHashes(robot.trigger);
  if (!hashes) throw new Error('a robot never put to work has no token to rotate');
  const { tokenHash, tokenSealed } = newTokenFields(key);
  const keepPrevious = graceHours > 0;
  await models.Robot.updateOne(
    { _id: robot._id },
    {
      $set: {
        'trigger.tokenHash': tokenHash,
        'trigger.tokenSealed': tokenSealed,
        'trigger.previousTokenHash': keepPrevious ? hashes.current.toString('hex') : null,
        'trigger.previousTokenExpiresAt': keepPrevious ? new Date(Date.now() + graceHours * 3_600_000) : null,
      },
      $unset: { 'trigger.token': 1 },
    },
  );
}
