/** Tokens, constant-time comparison and encryption of stored secrets (AES-256-GCM). */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  randomUUID,
  timingSafeEqual,
} from 'node:crypto';

/** A webhook URL token: 32 bytes from the CSPRNG, base64url (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function newId(): string {
  return randomUUID();
}

/** Compares two secrets in time that depends on neither their content nor their lengths. */
export function secretsEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

export function encryptSecret(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join(':');
}

/**
 * Opens a sealed secret with the first of `keys` that sealed it: SECRETS_KEY, then the keys it
 * replaced (SECRETS_KEY_PREVIOUS), so that changing SECRETS_KEY loses no stored secret.
 */
export function decryptSecret(keys: Buffer | readonly Buffer[], sealed: string): string {
  return openSecret(Buffer.isBuffer(keys) ? [keys] : keys, sealed).plain;
}

/** A sealed secret opened, and which of `keys` opened it (0: SECRETS_KEY; more: a previous one). */
export function openSecret(keys: readonly Buffer[], sealed: string): { plain: string; keyIndex: number } {
  const [version, iv, tag, data] = sealed.split(':');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown secret format');
  let failure: unknown;
  for (const [keyIndex, key] of keys.entries()) {
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      const plain = Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
      return { plain, keyIndex };
    } catch (err) {
      failure = err; // sealed with another key: the next one is tried
    }
  }
  throw new Error('a stored secret was sealed with a key that is neither SECRETS_KEY nor in SECRETS_KEY_PREVIOUS', {
    cause: failure,
  });
}

/**
 * A key of its own for one purpose (`dedup`, `payload-codec`, …), derived from SECRETS_KEY with
 * HKDF-SHA256, so that no two uses share a key and none reveals SECRETS_KEY.
 */
export function derivedKey(secretsKey: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), `webhook-trigger-service:${purpose}`, 32));
}

/** A keyed digest (HMAC-SHA256, hex): without the key, nobody can test a guess of what was digested. */
export function keyedDigest(key: Buffer, data: string | Buffer): string {
  return createHmac('sha256', key).update(data).digest('hex');
}
