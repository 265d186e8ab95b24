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
 */
import { triggerChecks } from '../robots/trigger-verification';
import { DEFAULT_WORKSPACE } from '../domain/workspaces';
import type { Models } from '../storage/models';
import { rawCollection } from '../storage/writes';
import { randomUUID } from 'node:crypto';
import { tokenHashes } from '../robots/trigger-tokens';
import { TRIGGER_CACHE_ENTRIES } from '../domain/limits';
import { isTriggerIdentifier } from '../domain/ids';
import { ruleHeaders } from '../domain/trigger-rules';
import { currentVersion } from '../robots/steps-versions';
import type { WebhookTrigger } from '../deliveries/webhook-trigger';

/** The `_id` of the one stamp document. */
const STAMP_ID = 'all';
/**
 * How old the stamp may be when a lookup is answered: a stop, a pause or a revoked token made through
 * another receiver may still be served here for up to a second. At most one read by `_id` a second.
 */
export const STAMP_POLL_MS = 1000;

export class TriggerCache {
  private readonly entries = new Map<string, { trigger: WebhookTrigger | null; expires: number }>();
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
    private readonly secretsKeys: readonly Buffer[],
    private readonly ttlMs: number,
    /** The clock the stamp's age is measured by (a test's own). */
    private readonly now: () => number = Date.now,
  ) {}

  async lookup(identifier: string): Promise<WebhookTrigger | null> {
    if (!isTriggerIdentifier(identifier)) return null;
    const stale = this.staleStamp();
    if (stale) await stale;
    const hit = this.entries.get(identifier);
    if (hit && hit.expires > Date.now()) return hit.trigger;
    if (!(await this.knownIdentifiers()).has(identifier)) return null;
    const trigger = await this.load(identifier);
    if (this.entries.size >= TRIGGER_CACHE_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(identifier, { trigger, expires: Date.now() + this.ttlMs });
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
        this.entries.clear();
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
    this.entries.clear();
    await this.announce();
  }

  /** Every trigger identifier there is: one read of the robots at most once per TTL, shared by concurrent lookups. */
  private async knownIdentifiers(): Promise<Set<string>> {
    if (this.known.expires > Date.now()) return this.known.ids;
    this.reading ??= (async () => {
      try {
        // The stamp first: a change after it is either in the set or moves the stamp again.
        this.stamp = await this.readStamp();
        const robots = await this.models.Robot.find(
          { 'trigger.identifier': { $ne: null } },
          { 'trigger.identifier': 1 },
        ).lean();
        this.known = { ids: new Set(robots.map((r) => r.trigger.identifier!)), expires: Date.now() + this.ttlMs };
        return this.known.ids;
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }

  private async load(identifier: string): Promise<WebhookTrigger | null> {
    const robot = await this.models.Robot.findOne({ 'trigger.identifier': identifier }).lean();
    const tokens = robot && tokenHashes(robot.trigger);
    if (!robot || !tokens) return null;
    const { verification, format, dedup, pendingSecrets } = await triggerChecks(this.models, this.secretsKeys, robot);
    return {
      robotId: robot._id,
      // Robots read before the workspace migration ran (it runs at connect) have none.
      workspaceId: robot.workspaceId ?? DEFAULT_WORKSPACE,
      robotName: robot.name,
      identifier,
      kind: robot.trigger.kind,
      tokens,
      state: robot.state,
      verification,
      pendingSecrets,
      format,
      stepsVersion: robot.stepsVersion ?? 0,
      ruleHeaders: ruleHeaders(currentVersion(robot).rules),
      dedup,
    };
  }
}
