/**
 * The receiver's view of webhook triggers, looked up by identifier and kept for a short time
 * (TRIGGER_CACHE_TTL_MS), so a burst of deliveries costs one database read. Starting or
 * stopping a robot through this process takes effect here at once; other receiver processes
 * see it within the TTL.
 *
 * Unknown identifiers cost little: the receiver keeps the set of every identifier that exists
 * (read again at most once per TTL, one read for all), so a spray of made-up identifiers is
 * answered 404 without a scan of the robots each, and only triggers that exist are ever cached,
 * so it cannot push real ones out.
 *
 * Several receivers: every receiver changes one small document (`trigger_changes/all`) when it
 * changes a trigger, and reads it by `_id`:
 * - before a would-be 404 (unknown identifier, robot not at work, wrong token; one read shared by
 *   the lookups that wait at that moment), so a robot put to work, or a token rotated, through one
 *   receiver is answered by every other at once, never 404 for a TTL;
 * - before a lookup, when it was last read STAMP_POLL_MS ago or more, so a robot stopped or paused,
 *   or a token revoked (rotated with no grace), through one receiver is taken by every other
 *   within that time, not the TTL. A stamp it has not seen makes it read the triggers again.
 *   Under steady traffic the read is made in the background once it is half that old, so no
 *   lookup waits for it; a receiver that gets no deliveries reads nothing (a read each second
 *   whatever the traffic cost an idle receiver about 2 ms of CPU a second, measured 2026-11-26).
 *   While the store does not answer, lookups do not wait for it: they are served from the cache,
 *   as they are between reads, and the stamp is asked again in the background.
 *
 * One read per trigger however many requests wait: when an entry is missing or expired, the first
 * lookup reads it and every lookup of that identifier meanwhile waits for the same read (at 64
 * connections an expired entry was read once per waiting request, each a filter FerretDB evaluates
 * over every robot). A read that fails fails the lookups that waited for it and is not kept: the
 * next lookup reads again. A read under way when its trigger is forgotten, or everything is dropped
 * (a stamp moved), answers its waiters but is not kept, and later lookups do not wait for it.
 * The reads under way are as many as the identifiers being looked up at that moment, at most one
 * each, so bounded by the receiver's connections.
 */
import type { Models } from '../storage/models';
import { rawCollection } from '../storage/writes';
import { randomUUID } from 'node:crypto';
import { TRIGGER_CACHE_ENTRIES } from '../domain/limits';
import { isTriggerIdentifier } from '../domain/ids';
import type { WebhookTrigger } from '../deliveries/webhook-trigger';
import { triggerLoad, type TriggerLoad } from './trigger-load';

/** The `_id` of the one stamp document. */
const STAMP_ID = 'all';
/**
 * How old the stamp may be when a lookup is answered: a stop, a pause or a revoked token made through
 * another receiver may still be served here for up to a second. At most one read by `_id` a second.
 */
export const STAMP_POLL_MS = 1000;

/** What a test or the bench sets; the service takes the defaults (and `coalesce` from TRIGGER_CACHE_COALESCE). */
export interface TriggerCacheOptions {
  /** The clock entries' and the stamp's ages are measured by (a test's own). */
  now?: () => number;
  /** How one trigger is read (by default from the store; a test counts the reads through it). */
  load?: TriggerLoad;
  /**
   * false: every lookup of a missing or expired entry reads it itself, as before 2026-11-29
   * (TRIGGER_CACHE_COALESCE=0: only for the bench to measure what the shared read is worth).
   */
  coalesce?: boolean;
}

export class TriggerCache {
  private readonly entries = new Map<string, { trigger: WebhookTrigger | null; expires: number }>();
  /** The read under way of each identifier being looked up (see the module's doc). */
  private readonly loading = new Map<string, Promise<WebhookTrigger | null>>();
  private readonly now: () => number;
  private readonly load: TriggerLoad;
  private readonly coalesce: boolean;
  private known: { ids: Set<string>; expires: number } = { ids: new Set(), expires: 0 };
  private reading: Promise<Set<string>> | undefined;
  /** The shared stamp as last seen, and the read of it under way. */
  private stamp: string | null = null;
  private stampRead: Promise<boolean> | undefined;
  /** When the last read of the stamp was asked (what it saw is at least that fresh), and whether it failed. */
  private stampAskedAt = 0;
  private stampFailed = false;

  constructor(
    private readonly models: Models,
    secretsKeys: readonly Buffer[],
    private readonly ttlMs: number,
    options: TriggerCacheOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.load = options.load ?? triggerLoad(models, secretsKeys);
    this.coalesce = options.coalesce ?? true;
  }

  async lookup(identifier: string): Promise<WebhookTrigger | null> {
    if (!isTriggerIdentifier(identifier)) return null;
    const stale = this.staleStamp();
    if (stale) await stale;
    const hit = this.entries.get(identifier);
    if (hit && hit.expires > this.now()) return hit.trigger;
    if (!(await this.knownIdentifiers()).has(identifier)) return null;
    if (!this.coalesce) return this.keep(identifier, await this.load(identifier));
    return this.loading.get(identifier) ?? this.read(identifier);
  }

  /** One read of a trigger, shared by the lookups that come meanwhile, kept unless dropped before it ends. */
  private read(identifier: string): Promise<WebhookTrigger | null> {
    /** Whether this read is still the one under way (not dropped meanwhile); it is over either way. */
    const current = (): boolean => this.loading.get(identifier) === read && this.loading.delete(identifier);
    const read: Promise<WebhookTrigger | null> = this.load(identifier).then(
      (trigger): WebhookTrigger | null => (current() ? this.keep(identifier, trigger) : trigger),
      (err: unknown) => {
        current();
        throw err;
      },
    );
    this.loading.set(identifier, read);
    return read;
  }

  /** Kept for the TTL; at TRIGGER_CACHE_ENTRIES, the oldest kept goes first. */
  private keep(identifier: string, trigger: WebhookTrigger | null): WebhookTrigger | null {
    this.entries.delete(identifier);
    if (this.entries.size >= TRIGGER_CACHE_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(identifier, { trigger, expires: this.now() + this.ttlMs });
    return trigger;
  }

  /**
   * The trigger as `lookup` finds it, or, when `accepted` refuses that answer, as found again if
   * another receiver changed a trigger since this one last looked (see the module's doc).
   */
  async lookupFor(identifier: string, accepted: (t: WebhookTrigger | null) => boolean): Promise<WebhookTrigger | null> {
    const first = await this.lookup(identifier);
    if (accepted(first) || !isTriggerIdentifier(identifier) || !(await this.changedElsewhere())) return first;
    return this.lookup(identifier);
  }

  /**
   * The stamp read a lookup must wait for: one when the stamp was last asked STAMP_POLL_MS ago or
   * more (none while the store is failing); past half that, one is started in the background.
   */
  private staleStamp(): Promise<unknown> | undefined {
    const age = this.now() - this.stampAskedAt;
    if (age < STAMP_POLL_MS / 2) return undefined;
    const read = this.changedElsewhere().catch(() => undefined);
    return age >= STAMP_POLL_MS && !this.stampFailed ? read : undefined;
  }

  /** Whether the shared stamp moved since last seen; if so, everything cached is dropped. */
  private changedElsewhere(): Promise<boolean> {
    this.stampRead ??= (async () => {
      try {
        const stamp = await this.readStamp();
        if (stamp === this.stamp) return false;
        this.stamp = stamp;
        this.dropAll();
        this.known.expires = 0;
        return true;
      } finally {
        this.stampRead = undefined;
      }
    })();
    return this.stampRead;
  }

  /**
   * A robot of this identifier was changed (started, stopped, paused, edited, rotated) through this
   * process: dropped here at once, and the shared stamp moved so the other receivers look again.
   * Awaited before the change is answered, so a sender told of it is answered by every receiver.
   */
  async forget(identifier: string | null): Promise<void> {
    if (!identifier) return;
    this.entries.delete(identifier);
    this.loading.delete(identifier);
    this.known.ids.add(identifier);
    await this.announce();
  }

  private async readStamp(): Promise<string | null> {
    const askedAt = this.now();
    try {
      const stamp = (await rawCollection(this.models.TriggerChange).findOne({ _id: STAMP_ID }))?.stamp ?? null;
      this.stampFailed = false;
      return stamp;
    } catch (err) {
      this.stampFailed = true;
      throw err;
    } finally {
      this.stampAskedAt = Math.max(this.stampAskedAt, askedAt);
    }
  }

  private async announce(): Promise<void> {
    const stamp = randomUUID();
    // Not taken as seen here: another receiver's change just before would be hidden by it.
    await rawCollection(this.models.TriggerChange).updateOne({ _id: STAMP_ID }, { $set: { stamp } }, { upsert: true });
  }

  /** An app was edited through this process: every trigger is read again, here and by the others. */
  async forgetAll(): Promise<void> {
    this.dropAll();
    await this.announce();
  }

  /** Every trigger kept, and every read under way, dropped: the next lookups read again. */
  private dropAll(): void {
    this.entries.clear();
    this.loading.clear();
  }

  /** Every trigger identifier there is: one read of the robots at most once per TTL, shared by concurrent lookups. */
  private async knownIdentifiers(): Promise<Set<string>> {
    if (this.known.expires > this.now()) return this.known.ids;
    this.reading ??= (async () => {
      try {
        // The stamp first: a change after it is either in the set or moves the stamp again.
        this.stamp = await this.readStamp();
        const robots = await this.models.Robot.find(
          { 'trigger.identifier': { $ne: null } },
          { 'trigger.identifier': 1 },
        ).lean<{ trigger: { identifier: string | null } }[]>();
        this.known = { ids: new Set(robots.map((r) => r.trigger.identifier!)), expires: this.now() + this.ttlMs };
        return this.known.ids;
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }
}
