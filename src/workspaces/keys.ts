/**
 * Keys of a workspace (src/domain/workspaces.ts): made by the operator or an owner of the workspace,
 * shown once, stored as the SHA-256 of their secret (as URL tokens are), revocable, with an
 * optional expiry, and when they were last used. Each request with a key reads it by `_id`, so a
 * revocation is refused by every process from its next request on.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { newId, newToken } from '../domain/secrets';
import { keyText, parseKey, type Role } from '../domain/workspaces';
import { KEY_LAST_USED_EVERY_MS } from '../domain/limits';
import { byId } from '../storage/by-id';
import type { ApiKeyDoc } from '../storage/workspace-documents';
import type { Models } from '../storage/models';
import { rawCollection } from '../storage/writes';

const hashOf = (secret: string) => createHash('sha256').update(secret).digest();

/** A key as it is made: the document, and its text (given once, never stored). */
export interface MadeKey {
  doc: ApiKeyDoc;
  key: string;
}

export class Keys {
  /** When this process last wrote each key's `lastUsedAt`. */
  private readonly touched = new Map<string, number>();

  constructor(private readonly models: Models) {}

  async create(workspaceId: string, made: { name: string; role: Role; expiresAt?: string }): Promise<MadeKey> {
    const secret = newToken();
    const doc: ApiKeyDoc = {
      _id: newId(),
      workspaceId,
      name: made.name,
      role: made.role,
      secretHash: hashOf(secret).toString('hex'),
      createdAt: new Date(),
      expiresAt: made.expiresAt ? new Date(made.expiresAt) : null,
      revokedAt: null,
      lastUsedAt: null,
    };
    await this.models.ApiKey.create(doc);
    return { doc, key: keyText(doc._id, secret) };
  }

  /** The workspace's keys, newest first (keys are few: one read of them all). */
  async of(workspaceId: string): Promise<ApiKeyDoc[]> {
    const keys = await this.models.ApiKey.find({ workspaceId }).lean();
    return keys.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  }

  get(id: string): Promise<ApiKeyDoc | null> {
    return byId<ApiKeyDoc>(this.models.ApiKey, id);
  }

  /** Revokes the key (again: it keeps its first revocation's time); the key as it is then. */
  async revoke(key: ApiKeyDoc): Promise<ApiKeyDoc> {
    if (key.revokedAt) return key;
    const revokedAt = new Date();
    await rawCollection(this.models.ApiKey).updateOne({ _id: key._id }, { $set: { revokedAt } });
    return { ...key, revokedAt };
  }

  /**
   * The key a presented text is, when it is one that works now: of this shape, stored, its secret
   * right (compared in constant time), not revoked, not expired. Its use is recorded, at most once
   * a minute per process (KEY_LAST_USED_EVERY_MS).
   */
  async accepted(presented: string, now = new Date()): Promise<ApiKeyDoc | null> {
    const parsed = parseKey(presented);
    const key = parsed && (await this.get(parsed.keyId));
    if (!parsed || !key) return null;
    const right = timingSafeEqual(hashOf(parsed.secret), Buffer.from(key.secretHash, 'hex'));
    if (!right || key.revokedAt || (key.expiresAt && key.expiresAt <= now)) return null;
    await this.touch(key, now);
    return key;
  }

  private async touch(key: ApiKeyDoc, now: Date): Promise<void> {
    const last = Math.max(this.touched.get(key._id) ?? 0, key.lastUsedAt?.getTime() ?? 0);
    if (now.getTime() - last < KEY_LAST_USED_EVERY_MS) return;
    this.touched.set(key._id, now.getTime());
    await rawCollection(this.models.ApiKey).updateOne({ _id: key._id }, { $set: { lastUsedAt: now } });
  }
}
