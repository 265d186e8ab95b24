/**
 * The secrets every process needs, ADMIN_TOKEN, SECRETS_KEY and WEB_UI_KEY: from the environment,
 * or kept in the data folder, made there on first start. A kept file that is not a valid value, or a data
 * folder this process cannot write, stops it with a message naming the file or the folder.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** A setting that stops the process, with a message naming it. */
export class ConfigError extends Error {}

export const adminTokenSchema = z.string().min(16, 'must be at least 16 characters');
/** The Web UI's codec key: a path segment of the codec endpoint (src/codec/routes.ts). */
export const webUiKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16,200}$/, 'must be 16 or more letters, digits, - or _ (it is part of a URL)');
export const secretsKeySchema = z
  .string()
  .refine((v) => /^[A-Za-z0-9+/_-]{43}=?$/.test(v.trim()), 'must be 32 bytes, base64-encoded');

/**
 * Reads a secret kept in the data folder, creating it on first start (O_EXCL: one writer wins). A
 * file whose content is not a valid value (edited by hand, cut short) stops the process naming it.
 */
function persistentSecret(dataDir: string, name: string, make: () => string, valid: z.ZodTypeAny): string {
  const file = path.join(dataDir, name);
  try {
    fs.writeFileSync(file, make(), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const value = fs.readFileSync(file, 'utf8').trim();
  const checked = valid.safeParse(value);
  if (!checked.success)
    throw new ConfigError(`${file}: ${checked.error.issues[0].message}; fix the file, or remove it to make a new one`);
  return value;
}

/** The secrets: those given, else those kept in `dataDir` (made there if absent). */
export function keptSecrets(
  dataDir: string,
  given: { adminToken?: string; secretsKey?: string; webUiKey?: string },
): { adminToken: string; secretsKey: string; webUiKey: string } {
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    return {
      adminToken:
        given.adminToken ??
        persistentSecret(dataDir, 'admin-token', () => randomBytes(32).toString('base64url'), adminTokenSchema),
      secretsKey:
        given.secretsKey ??
        persistentSecret(dataDir, 'secrets.key', () => randomBytes(32).toString('base64'), secretsKeySchema),
      webUiKey:
        given.webUiKey ??
        persistentSecret(dataDir, 'web-ui-key', () => randomBytes(32).toString('base64url'), webUiKeySchema),
    };
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    const { code } = err as NodeJS.ErrnoException;
    if (!code) throw err;
    const who = process.getuid ? ` by this user (uid ${process.getuid()})` : '';
    throw new ConfigError(
      `DATA_DIR: ${dataDir} cannot be written${who} (${code}); make it writable, or point DATA_DIR elsewhere`,
    );
  }
}
