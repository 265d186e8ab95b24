/**
 * Counting failures into issues (src/domain/issues.ts, docs/issues.md), one counter per process. The
 * sites that know a failure's cause (the receiver's refusals, the worker's failed deliveries and runs)
 * call `hit`, which only adds to a count in memory: no read, no write, nothing on a processed
 * delivery's path. Every ISSUE_FLUSH_MS the counter writes each issue hit since with ONE
 * `findOneAndUpdate` by `_id` (the FerretDB rule, docs/storage.md): counts added, times widened, the
 * robot, kind and reason set when it is new, answering what the issue was before. From that the one
 * flush that opened the issue (there was none) or reopened it (it was resolved, and a hit came after)
 * knows it, and notifies (`onOpened`) unless the issue notified within ISSUE_NOTIFY_INTERVAL.
 *
 * A flush that fails keeps its counts for the next (logged); they are added to, never grown into new
 * entries past ISSUE_PENDING_MAX issues held. `stop` writes what is held (a process's drain); a process
 * killed loses at most a flush's worth of counts, never a delivery's record.
 */
import type { Logger } from '../core/log';
import { issueId } from '../domain/issue-ids';
import { issueChange, notifiesNow, type IssueHit } from '../domain/issues';
import { ISSUE_FLUSH_MS, ISSUE_PENDING_MAX } from '../domain/limits';
import type { IssueDoc } from '../storage/issue-documents';
import type { Models } from '../storage/models';
import { isDuplicateKeyError } from '../storage/writes';

/** Told when a flush opened or reopened an issue that may notify now: starts its notification. */
export type IssueOpened = (issue: IssueDoc, how: 'opened' | 'reopened') => Promise<void>;
/** No notification: the issue is counted and shown, its opening logged (a process not given one). */
export const NO_NOTIFICATION: IssueOpened = () => Promise.resolve();

/** An issue's hits since the last flush. */
interface Pending {
  robotId: string;
  workspaceId: string;
  kind: IssueHit['kind'];
  reason: string;
  count: number;
  first: Date;
  last: Date;
  lastDeliveryId?: string;
}

export interface IssueCounterDeps {
  models: Pick<Models, 'Issue'>;
  log: Logger;
  /** ISSUE_NOTIFY_INTERVAL: an issue notifies at most once in this long. */
  notifyIntervalMs: number;
  onOpened: IssueOpened;
  /** ISSUE_FLUSH_MS unless a test says otherwise. */
  flushMs?: number;
}

export class IssueCounter {
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  /** Hits of issues not held, past ISSUE_PENDING_MAX: counted for the log line. */
  private dropped = 0;
  private stopped = false;

  constructor(private readonly deps: IssueCounterDeps) {}

  /** Counts one failure: in memory only, written by the next flush. */
  hit(h: IssueHit): void {
    const key = `${h.robotId}\n${h.kind}\n${h.reason}`;
    const { robotId, workspaceId, kind, reason, deliveryId, at } = h;
    const one = { robotId, workspaceId, kind, reason, count: 1, first: at, last: at };
    this.merge(key, deliveryId ? { ...one, lastDeliveryId: deliveryId } : one);
    this.schedule();
  }

  /** Writes what is held now (and waits for a flush under way). */
  flush(): Promise<void> {
    this.flushing ??= this.writeAll().finally(() => {
      this.flushing = null;
      if (this.pending.size > 0) this.schedule();
    });
    return this.flushing;
  }

  /** Writes what is held, once; a process calls it as it stops (its drain). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flushing;
    await this.flush();
    if (this.pending.size > 0)
      this.deps.log.warn('issue counts were not written before the process stopped', { issues: this.pending.size });
  }

  /** Adds `p` to what is held for its issue; a new issue past ISSUE_PENDING_MAX is dropped (counted). */
  private merge(key: string, p: Pending): void {
    const held = this.pending.get(key);
    if (!held) {
      if (this.pending.size >= ISSUE_PENDING_MAX) this.dropped += p.count;
      else this.pending.set(key, p);
      return;
    }
    held.count += p.count;
    if (p.first < held.first) held.first = p.first;
    if (p.last >= held.last) {
      held.last = p.last;
      held.lastDeliveryId = p.lastDeliveryId ?? held.lastDeliveryId;
    } else held.lastDeliveryId ??= p.lastDeliveryId;
  }

  private schedule(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.deps.flushMs ?? ISSUE_FLUSH_MS);
    this.timer.unref();
  }

  private async writeAll(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    if (this.dropped > 0) {
      this.deps.log.warn('failures not counted: too many issues held at once', { dropped: this.dropped });
      this.dropped = 0;
    }
    let failed = 0;
    let error: unknown;
    await Promise.all(
      [...batch].map(async ([key, p]) => {
        let before: IssueDoc | null;
        try {
          before = await this.write(p);
        } catch (err) {
          // Kept for the next flush: added to what comes meanwhile.
          failed++;
          error = err;
          this.merge(key, p);
          return;
        }
        await this.opened(p, before);
      }),
    );
    if (failed > 0)
      this.deps.log.warn('issue counts not written: kept for the next flush', { issues: failed, err: error });
  }

  /** One write by `_id`; what the issue was before (null: there was none). */
  private async write(p: Pending): Promise<IssueDoc | null> {
    const { robotId, workspaceId, kind, reason } = p;
    const update = {
      $inc: { count: p.count },
      $max: { lastSeen: p.last },
      $min: { firstSeen: p.first },
      $setOnInsert: { workspaceId, robotId, kind, reason },
      ...(p.lastDeliveryId ? { $set: { lastDeliveryId: p.lastDeliveryId } } : {}),
    };
    const upsert = () =>
      this.deps.models.Issue.findOneAndUpdate({ _id: issueId(robotId, kind, reason) }, update, {
        upsert: true,
        returnDocument: 'before',
      }).lean<IssueDoc>();
    try {
      return await upsert();
    } catch (err) {
      // Another process made the issue at the same moment: it exists now, so this is an update.
      if (isDuplicateKeyError(err)) return upsert();
      throw err;
    }
  }

  /** When this flush opened or reopened the issue and it may notify now: marks it notified, then tells. */
  private async opened(p: Pending, before: IssueDoc | null): Promise<void> {
    const how = issueChange(before, p.last);
    const now = new Date();
    if (!how || !notifiesNow(before?.notifiedAt, now, this.deps.notifyIntervalMs)) return;
    const _id = issueId(p.robotId, p.kind, p.reason);
    const issue: IssueDoc = {
      ...before,
      _id,
      workspaceId: before?.workspaceId ?? p.workspaceId,
      robotId: p.robotId,
      kind: p.kind,
      reason: p.reason,
      count: (before?.count ?? 0) + p.count,
      firstSeen: before && before.firstSeen < p.first ? before.firstSeen : p.first,
      lastSeen: before && before.lastSeen > p.last ? before.lastSeen : p.last,
      ...(p.lastDeliveryId ? { lastDeliveryId: p.lastDeliveryId } : {}),
      notifiedAt: now,
    };
    const fields = { issueId: _id, robotId: p.robotId, workspaceId: issue.workspaceId, kind: p.kind, reason: p.reason };
    try {
      await this.deps.models.Issue.updateOne({ _id }, { $set: { notifiedAt: now } });
      this.deps.log.info(`an issue ${how}`, fields);
      await this.deps.onOpened(issue, how);
    } catch (err) {
      // Counted already: only its notification is lost (the dashboard still shows the issue).
      this.deps.log.warn(`an issue ${how}, but its notification could not be started`, { ...fields, err });
    }
  }
}
