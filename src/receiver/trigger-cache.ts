/**
 * The receiver's view of webhook triggers, looked up by identifier and kept for a short time
 * (TRIGGER_CACHE_TTL_MS), so a burst of deliveries costs one database read. Starting or
 * stopping a robot through this process forgets its entry at once; other receiver processes
 * see the change within the TTL.
 */
import { decryptSecret } from '../domain/secrets';
import type { TriggerKind } from '../domain/types';
import type { Models } from '../models';

export interface WebhookTrigger {
  robotId: string;
  identifier: string;
  kind: TriggerKind;
  token: string;
  atWork: boolean;
  /** The payment provider connection's signing secret, when one is set. */
  signingSecret: string | null;
}

const IDENTIFIER = /^(custom|stripe):[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAX_ENTRIES = 10_000;

export class TriggerCache {
  private readonly entries = new Map<string, { trigger: WebhookTrigger | null; expires: number }>();

  constructor(
    private readonly models: Models,
    private readonly secretsKey: Buffer,
    private readonly ttlMs: number,
  ) {}

  async lookup(identifier: string): Promise<WebhookTrigger | null> {
    if (!IDENTIFIER.test(identifier)) return null;
    const hit = this.entries.get(identifier);
    if (hit && hit.expires > Date.now()) return hit.trigger;
    const trigger = await this.load(identifier);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(identifier, { trigger, expires: Date.now() + this.ttlMs });
    return trigger;
  }

  forget(identifier: string | null): void {
    if (identifier) this.entries.delete(identifier);
  }

  private async load(identifier: string): Promise<WebhookTrigger | null> {
    const robot = await this.models.Robot.findOne({ 'trigger.identifier': identifier }).lean();
    if (!robot?.trigger.token) return null;
    let signingSecret: string | null = null;
    if (robot.trigger.kind === 'stripe' && robot.trigger.connectionId) {
      const connection = await this.models.Connection.findById(robot.trigger.connectionId).lean();
      if (connection?.signingSecretSealed) signingSecret = decryptSecret(this.secretsKey, connection.signingSecretSealed);
    }
    return {
      robotId: robot._id,
      identifier,
      kind: robot.trigger.kind,
      token: robot.trigger.token,
      atWork: robot.state === 'at_work',
      signingSecret,
    };
  }
}
