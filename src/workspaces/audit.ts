/**
 * The audit log: every management write (create, edit, put to work, pause, resume, stop, rotate,
 * replay, test delivery, key made or revoked, workspace made) recorded in its workspace with who
 * made it (the key's name and id, or "admin"), the action (`robot.pause`), the resource
 * (`robot:<id>`), when and from which address; never a secret or a body. Recorded by the route
 * itself once the write succeeded (src/contract/route.ts), so a new route is never left out.
 *
 * Each workspace's log is a chain (src/storage/chains.ts) of entries `<workspace>:<n>`, claimed by
 * insert, with a head (`audit_heads/<workspace>`) that says the first entry kept and one known to
 * exist. A page, newest first, is its entries read by `_id`: what it costs does not grow with the
 * log (measured at 100,000 entries, docs/workspaces.md).
 *
 * Kept for AUDIT_RETENTION (a year by default): entries older are not shown, and are deleted, from
 * the oldest on, by the writes of their workspace (a sweep at every AUDIT_SWEEP_EVERY-th entry,
 * src/domain/limits/management.ts).
 */
import { BadCursor } from '../domain/cursors';
import { actorName, type Caller } from '../domain/workspaces';
import { AUDIT_SWEEP_EVERY, AUDIT_SWEPT_AT_ONCE, ROBOTS_KEPT } from '../domain/limits';
import { byId, deleteById } from '../storage/by-id';
import { Chains } from '../storage/chains';
import type { AuditEntryDoc, AuditHeadDoc } from '../storage/workspace-documents';
import type { Models } from '../storage/models';
import { rawCollection } from '../storage/writes';

/** A page of the log: its entries, newest first, and where the next page begins (null: none left). */
export interface AuditPage {
  entries: AuditEntryDoc[];
  nextCursor: string | null;
}

export class AuditLog {
  private readonly chains: Chains<AuditEntryDoc>;

  constructor(
    private readonly models: Models,
    /** How long an entry is kept (0: forever). */
    private readonly retentionMs: number,
  ) {
    this.chains = new Chains(models.AuditEntry, ROBOTS_KEPT);
  }

  /** Records a write the caller made in its workspace. */
  async record(caller: Caller, action: string, resource: string, workspaceId = caller.workspaceId): Promise<void> {
    const head = await this.head(workspaceId);
    const entry = { at: new Date(), actor: actorName(caller.actor), action, resource, address: caller.address };
    const n = await this.chains.append(workspaceId, entry, head.last);
    await rawCollection(this.models.AuditHead).updateOne(
      { _id: workspaceId },
      { $max: { last: n }, $setOnInsert: { from: 1 } },
      { upsert: true },
    );
    if (n % AUDIT_SWEEP_EVERY === 0) await this.sweep(workspaceId);
  }

  /** A page of the workspace's log, newest first, from `cursor` (a page's `nextCursor`) on. */
  async page(workspaceId: string, limit: number, cursor?: string): Promise<AuditPage> {
    const head = await this.head(workspaceId);
    let top: number;
    if (cursor === undefined) top = await this.chains.last(workspaceId, Math.max(head.last, head.from - 1));
    else {
      if (!/^[1-9]\d{0,15}$/.test(cursor)) throw new BadCursor();
      top = Number(cursor) - 1;
    }
    const bottom = Math.max(head.from, top - limit + 1);
    const numbers = Array.from({ length: Math.max(0, top - bottom + 1) }, (_, i) => top - i);
    const read = await Promise.all(numbers.map((n) => this.chains.entry(workspaceId, n)));
    const cutoff = this.cutoff();
    const entries = read.filter((e): e is AuditEntryDoc => e !== null && e.at.getTime() >= cutoff);
    // Past retention is the end of the log, even before a sweep deleted it.
    const more = bottom > head.from && !read.some((e) => e !== null && e.at.getTime() < cutoff);
    return { entries, nextCursor: more ? String(bottom) : null };
  }

  /** Deletes the workspace's entries past retention, oldest first, and moves its head past them. */
  async sweep(workspaceId: string): Promise<number> {
    if (this.retentionMs === 0) return 0;
    const head = await this.head(workspaceId);
    const cutoff = this.cutoff();
    let n = head.from;
    for (; n <= head.last && n - head.from < AUDIT_SWEPT_AT_ONCE; n++) {
      const entry = await this.chains.entry(workspaceId, n);
      if (entry && entry.at.getTime() >= cutoff) break;
      await deleteById(this.models.AuditEntry, `${workspaceId}:${n}`);
    }
    if (n > head.from)
      await rawCollection(this.models.AuditHead).updateOne({ _id: workspaceId }, { $max: { from: n } });
    return n - head.from;
  }

  private async head(workspaceId: string): Promise<AuditHeadDoc> {
    return (await byId<AuditHeadDoc>(this.models.AuditHead, workspaceId)) ?? { _id: workspaceId, from: 1, last: 0 };
  }

  private cutoff(): number {
    return this.retentionMs === 0 ? 0 : Date.now() - this.retentionMs;
  }
}
