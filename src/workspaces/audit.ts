/**
 * The audit log: every management write (create, edit, put to work, pause, resume, stop, rotate,
 * replay, test delivery, key made or revoked, workspace made) recorded in its workspace with who
 * made it (`{ kind, keyId, name }`: the admin, or a key by id and name), the action (`robot.pause`),
 * its outcome (`done`, or `refused`: a key whose role is short of it, 403), the resource
 * (`robot:<id>`), when and from which address; never a secret or a body. Recorded by the route
 * itself (src/contract/route.ts), so a new route is never left out. What a sender does on a
 * webhook URL that changes what the URL accepts (a secret given in a handshake) is recorded too,
 * by `recordSenderEvent`, with the sender's address (review R7).
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
import { retried } from '../core/retry';
import { BadCursor } from '../domain/cursors';
import { auditActor, SENDER_ACTOR, type AuditActor, type AuditOutcome, type Caller } from '../domain/workspaces';
import {
  AUDIT_FILTER_SCAN,
  AUDIT_RECORD_RETRY,
  AUDIT_SWEEP_EVERY,
  AUDIT_SWEPT_AT_ONCE,
  ROBOTS_KEPT,
} from '../domain/limits';
import { byId, deleteById } from '../storage/by-id';
import { Chains } from '../storage/chains';
import type { AuditEntryDoc, AuditHeadDoc } from '../storage/workspace-documents';
import type { Models } from '../storage/models';
import { rawCollection } from '../storage/writes';

/** An entry as it is read: entries written before 0.11 (actor as text, no outcome) read as today's. */
export interface AuditEntry {
  at: Date;
  actor: AuditActor;
  action: string;
  outcome: AuditOutcome;
  resource: string;
  address: string;
}

/** Which entries a page shows: one actor's (`admin`, `sender` or a key's id), one action's, made in a time. */
export interface AuditFilter {
  actor?: string;
  action?: string;
  since?: Date;
  until?: Date;
}

const matches = (e: AuditEntry, { actor, action }: AuditFilter) =>
  (!action || e.action === action) &&
  (!actor || (e.actor.kind === 'key' ? e.actor.keyId === actor : e.actor.kind === actor));

/** A page of the log: its entries, newest first, and where the next page begins (null: none left). */
export interface AuditPage {
  entries: AuditEntry[];
  nextCursor: string | null;
}

/** What a sender did on a webhook URL, to be recorded in the URL's workspace (`recordSenderEvent`). */
export interface SenderEvent {
  workspaceId: string;
  /** The sender's client address (src/core/client-address.ts). */
  address: string;
  /** What it did: `robot.secret-from-handshake`. */
  action: string;
  /** What it did it to: `robot:<id>`. */
  resource: string;
}

/** How entries before 0.11 named a key: "<name> (key <id>)"; the only other text was "admin". */
const KEY_AS_TEXT = /^(.*) \(key ([0-9a-f-]{36})\)$/s;

/** The actor of a stored entry, whether written as fields (0.11 on) or as text (before). */
export function storedActor(stored: AuditActor | string): AuditActor {
  if (typeof stored !== 'string') return stored;
  const key = KEY_AS_TEXT.exec(stored);
  return key ? { kind: 'key', keyId: key[2], name: key[1] } : { kind: 'admin', keyId: null, name: null };
}

const entryOf = ({ at, actor, action, outcome, resource, address }: AuditEntryDoc): AuditEntry => ({
  at,
  actor: storedActor(actor),
  action,
  outcome: outcome ?? 'done',
  resource,
  address,
});

export class AuditLog {
  private readonly chains: Chains<AuditEntryDoc>;

  constructor(
    private readonly models: Models,
    /** How long an entry is kept (0: forever). */
    private readonly retentionMs: number,
  ) {
    this.chains = new Chains(models.AuditEntry, ROBOTS_KEPT);
  }

  /**
   * Records a write the caller makes in its workspace (`started`, before it is made; `refused`; or
   * `done`, for a record of a write made); resolves with the entry's id, for `settle`.
   */
  async record(
    caller: Caller,
    action: string,
    resource: string,
    workspaceId = caller.workspaceId,
    outcome: AuditOutcome = 'done',
  ): Promise<string> {
    const actor = auditActor(caller.actor);
    return this.append(workspaceId, { at: new Date(), actor, action, outcome, resource, address: caller.address });
  }

  /** How a `started` write went (`done` or `failed`), and what it made (`resource`): one update by `_id`. */
  async settle(entryId: string, outcome: AuditOutcome, resource: string): Promise<void> {
    await this.models.AuditEntry.updateOne({ _id: entryId }, { $set: { outcome, resource } });
  }

  /** Records what a sender did on a webhook URL, in the URL's workspace. */
  async recordSender(event: SenderEvent): Promise<void> {
    const { workspaceId, address, action, resource } = event;
    await this.append(workspaceId, { at: new Date(), actor: SENDER_ACTOR, action, outcome: 'done', resource, address });
  }

  /**
   * Stores the entry: only its insert can fail the record, so a record tried again after a failure
   * never stores an entry twice (unless the insert's answer was lost after it was taken). The head
   * and the sweep are kept up by any later write: a head behind costs the next append a few reads.
   */
  private async append(workspaceId: string, entry: Omit<AuditEntryDoc, '_id'>): Promise<string> {
    const head = await this.head(workspaceId);
    const n = await this.chains.append(workspaceId, entry, head.last);
    const entryId = `${workspaceId}:${n}`;
    try {
      await rawCollection(this.models.AuditHead).updateOne(
        { _id: workspaceId },
        { $max: { last: n }, $setOnInsert: { from: 1 } },
        { upsert: true },
      );
      if (n % AUDIT_SWEEP_EVERY === 0) await this.sweep(workspaceId);
    } catch {
      // The entry is stored; what failed is bookkeeping a later write does again.
    }
    return entryId;
  }

  /**
   * A page of the workspace's log, newest first, from `cursor` (a page's `nextCursor`) on; with a
   * filter, its matching entries among at most AUDIT_FILTER_SCAN read (a page may then be short, or
   * empty, with a `nextCursor` to go on from). `until` starts at the last entry made by then (found
   * by halving: entries are numbered in the order they were made); `since` ends the log.
   */
  async page(workspaceId: string, limit: number, cursor?: string, filter: AuditFilter = {}): Promise<AuditPage> {
    const head = await this.head(workspaceId);
    let top: number;
    if (cursor === undefined) top = await this.chains.last(workspaceId, Math.max(head.last, head.from - 1));
    else {
      if (!/^[1-9]\d{0,15}$/.test(cursor)) throw new BadCursor();
      top = Number(cursor) - 1;
    }
    if (filter.until) top = await this.lastBy(workspaceId, head.from, top, filter.until);
    const filtered = Boolean(filter.actor || filter.action || filter.since || filter.until);
    const cutoff = Math.max(this.cutoff(), filter.since?.getTime() ?? 0);
    const entries: AuditEntry[] = [];
    let bottom = top + 1;
    let ended = false;
    const budget = filtered ? AUDIT_FILTER_SCAN : limit;
    while (entries.length < limit && bottom > head.from && top - bottom + 1 < budget && !ended) {
      const to = bottom - 1;
      const from = Math.max(head.from, to - Math.min(limit, budget - (top - to)) + 1);
      const numbers = Array.from({ length: to - from + 1 }, (_, i) => to - i);
      const read = await Promise.all(numbers.map((n) => this.chains.entry(workspaceId, n)));
      for (const [i, e] of read.entries()) {
        if (entries.length === limit) break;
        bottom = numbers[i];
        if (!e) continue;
        // Past retention (or before `since`) is the end of the log, even before a sweep deleted it.
        if (e.at.getTime() < cutoff) {
          ended = true;
          break;
        }
        const entry = entryOf(e);
        if (matches(entry, filter)) entries.push(entry);
      }
    }
    return { entries, nextCursor: !ended && bottom > head.from ? String(bottom) : null };
  }

  /** The number of the last entry, at most `top`, made by `until` (head.from - 1: none). */
  private async lastBy(workspaceId: string, from: number, top: number, until: Date): Promise<number> {
    let [low, high] = [from - 1, top];
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      const entry = await this.chains.entry(workspaceId, middle);
      if (!entry || entry.at <= until) low = middle;
      else high = middle - 1;
    }
    return low;
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

/**
 * Records what a sender did on a webhook URL (`kind: 'sender'`, its address) in the URL's
 * workspace, tried again as a write's entry is (AUDIT_RECORD_RETRY); throws when the database never
 * took it. For the receiver: a secret a handshake gave (`robot.secret-from-handshake`).
 */
export async function recordSenderEvent(models: Models, retentionMs: number, event: SenderEvent): Promise<void> {
  const log = new AuditLog(models, retentionMs);
  await retried(() => log.recordSender(event), AUDIT_RECORD_RETRY);
}
