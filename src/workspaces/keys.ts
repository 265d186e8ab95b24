/**
 * Keys of a workspace (src/domain/workspaces.ts): made by the operator or an owner of the workspace,
 * shown once, stored as the SHA-256 of their secret (as URL tokens are), revocable, with an
 * optional expiry, and when they were last used. Each request with a key reads it by `_id`, so a
 * revocation is refused by every process from its next request on.
 *
 * A key cannot outlive its maker (review R4): a key made by a key records it (`createdBy`), expires
 * no later than it (a later or absent expiry is capped to the maker's), and is revoked with it:
 * revoking a key revokes every key it made, and what they made, at once. The request path stays one
 * read by `_id`: the cascade is the revocation's (one read of the workspace's keys, a rare write).
 * A key made while its maker is being revoked is caught either way: the revocation lists it, or
 * its making finds a maker above it revoked once it is stored, revokes it and answers 409.
 * Keys made before 0.11 have no `createdBy`, and stand on their own.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { conflict } from '../core/http-errors';
import { newId, newToken } from '../domain/secrets';
import { keyText, parseKey, type KeyMaker, type Role } from '../domain/workspaces';
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

/**
 * Why a request's credential is no caller (`webhooks_api_credentials_refused_total{reason}`): none given, not
 * the admin token nor a key (unknown id, wrong secret, not a key's shape), a revoked or an expired key.
 */
export type CredentialRefusal = 'missing' | 'wrong' | 'revoked' | 'expired';

/** The expiry a key gets: the one asked for, but never later than its maker's. */
export function cappedExpiry(asked: Date | null, maker: Date | null): Date | null {
  if (!maker) return asked;
  return asked && asked < maker ? asked : maker;
}

/** Every key `root` made, and what they made, from the workspace's keys. */
export function madeBy(keys: readonly ApiKeyDoc[], root: string): ApiKeyDoc[] {
  const made: ApiKeyDoc[] = [];
  const makers = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const k of keys) {
      const by = k.createdBy?.keyId;
      if (by && makers.has(by) && !makers.has(k._id)) {
        makers.add(k._id);
        made.push(k);
        grew = true;
      }
    }
  }
  return made;
}

/** Whether a key works now: neither revoked nor expired. */
const working = (k: ApiKeyDoc, now: Date) => !k.revokedAt && !(k.expiresAt && k.expiresAt <= now);

/**
 * Why revoking `key` is refused, or null: it would revoke (itself, or through the keys it made) the
 * last working owner key of the workspace, which would leave no key that manages its keys.
 */
export function revokeRefusal(keys: readonly ApiKeyDoc[], key: ApiKeyDoc, now = new Date()): string | null {
  const revoked = new Set([key._id, ...madeBy(keys, key._id).map((k) => k._id)]);
  const owners = keys.filter((k) => k.role === 'owner' && working(k, now));
  if (owners.length === 0 || owners.some((k) => !revoked.has(k._id))) return null;
  return key.role === 'owner' && owners.length === 1 && owners[0]._id === key._id
    ? "it is the workspace's last owner key: make another owner key first"
    : "it would revoke, with the keys it made, the workspace's last owner key: make another owner key first";
}

export class Keys {
  /** When this process last wrote each key's `lastUsedAt`. */
  private readonly touched = new Map<string, number>();

  constructor(private readonly models: Models) {}

  /** Makes a key, by the admin (`maker` null) or by a key of the workspace (its expiry caps this one's). */
  async create(
    workspaceId: string,
    made: { name: string; role: Role; expiresAt?: string },
    maker: ApiKeyDoc | null,
  ): Promise<MadeKey> {
    const secret = newToken();
    const createdBy: KeyMaker = maker ? { kind: 'key', keyId: maker._id } : { kind: 'admin', keyId: null };
    const doc: ApiKeyDoc = {
      _id: newId(),
      workspaceId,
      name: made.name,
      role: made.role,
      secretHash: hashOf(secret).toString('hex'),
      createdAt: new Date(),
      expiresAt: cappedExpiry(made.expiresAt ? new Date(made.expiresAt) : null, maker?.expiresAt ?? null),
      revokedAt: null,
      lastUsedAt: null,
      createdBy,
    };
    await this.models.ApiKey.create(doc);
    if (await this.makerRevoked(doc)) {
      await this.revoke(doc);
      throw conflict('the key making this one was revoked meanwhile: the new key is revoked with it');
    }
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

  /**
   * Revokes the key and every key it made, transitively (each keeps its first revocation's time);
   * the key as it is then. Revoking again finishes a cascade a stopped process left half done.
   * `keepAnOwner` (a revocation asked through the API): refused (409) when it would revoke the
   * workspace's last working owner key (`revokeRefusal`; two owners revoking each other at the same
   * moment could both pass: the admin token can always make a new owner key).
   */
  async revoke(key: ApiKeyDoc, keepAnOwner = false): Promise<ApiKeyDoc> {
    const revokedAt = key.revokedAt ?? new Date();
    const keys = await this.of(key.workspaceId);
    const refusal = keepAnOwner && !key.revokedAt ? revokeRefusal(keys, key) : null;
    if (refusal) throw conflict(`this key cannot be revoked: ${refusal}`);
    const ids = [key, ...madeBy(keys, key._id)].filter((k) => !k.revokedAt).map((k) => k._id);
    // One by `_id` each (the FerretDB rule, src/storage/by-id.ts); the key itself first.
    for (const id of ids) await rawCollection(this.models.ApiKey).updateOne({ _id: id }, { $set: { revokedAt } });
    return { ...key, revokedAt };
  }

  /** Whether a key above this one (its maker, its maker's maker…) is revoked or gone. */
  private async makerRevoked(key: ApiKeyDoc): Promise<boolean> {
    for (let by = key.createdBy; by?.kind === 'key' && by.keyId;) {
      const maker = await this.get(by.keyId);
      if (!maker || maker.revokedAt) return true;
      by = maker.createdBy;
    }
    return false;
  }

  /**
   * The key a presented text is, when it is one that works now: of this shape, stored, its secret
   * right (compared in constant time), not revoked, not expired; or why it is not. Its use is
   * recorded, at most once a minute per process (KEY_LAST_USED_EVERY_MS).
   */
  async check(presented: string, now = new Date()): Promise<{ key: ApiKeyDoc } | { refused: CredentialRefusal }> {
    const parsed = parseKey(presented);
    const key = parsed && (await this.get(parsed.keyId));
    if (!parsed || !key) return { refused: 'wrong' };
    if (!timingSafeEqual(hashOf(parsed.secret), Buffer.from(key.secretHash, 'hex'))) return { refused: 'wrong' };
    if (key.revokedAt) return { refused: 'revoked' };
    if (key.expiresAt && key.expiresAt <= now) return { refused: 'expired' };
    await this.touch(key, now);
    return { key };
  }

  /** The key a presented text is, when it works now (`check`); null otherwise. */
  async accepted(presented: string, now = new Date()): Promise<ApiKeyDoc | null> {
    const checked = await this.check(presented, now);
    return 'key' in checked ? checked.key : null;
  }

  private async touch(key: ApiKeyDoc, now: Date): Promise<void> {
    const last = Math.max(this.touched.get(key._id) ?? 0, key.lastUsedAt?.getTime() ?? 0);
    if (now.getTime() - last < KEY_LAST_USED_EVERY_MS) return;
    this.touched.set(key._id, now.getTime());
    await rawCollection(this.models.ApiKey).updateOne({ _id: key._id }, { $set: { lastUsedAt: now } });
  }
}
