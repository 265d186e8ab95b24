/**
 * A robot's webhook trigger as the receiver takes its deliveries: what src/receiver/trigger-cache.ts
 * reads and keeps, and ./intake.ts takes a request with.
 */
import type { DedupChoice } from '../domain/dedup';
import { takesDeliveries } from '../domain/robot-lifecycle';
import type { BodyFormat, RobotState, TriggerKind } from '../domain/types';
import type { TokenHashes } from '../robots/trigger-tokens';
import type { SenderVerification } from './request';

/** A robot's webhook trigger as the receiver takes its deliveries (read through src/receiver/trigger-cache.ts). */
export interface WebhookTrigger {
  robotId: string;
  /** The robot's workspace: on its deliveries, their log lines and search attributes, and its quota. */
  workspaceId: string;
  /** For the workflow's summary in the Temporal Web UI. */
  robotName: string;
  identifier: string;
  kind: TriggerKind;
  /** Hashes of the tokens its URL accepts (src/robots/trigger-tokens.ts). */
  tokens: TokenHashes;
  state: RobotState;
  /** How its senders sign, when they must: the payment provider's signing secret, or the custom app's scheme. */
  verification: SenderVerification | null;
  /**
   * Secrets its sender gave in handshakes that no editor has confirmed yet (src/robots/handshake-secrets.ts):
   * an event signed with one is refused, naming it.
   */
  pendingSecrets: string[];
  /** The app's body format (json for the payment provider), noted in each delivery. */
  format: BodyFormat;
  /** The robot's steps version, noted in each delivery (src/robots/steps-versions.ts). */
  stepsVersion: number;
  /** Headers its trigger rules read, kept with each delivery (src/domain/trigger-rules.ts). */
  ruleHeaders: string[];
  /** What its deliveries are told apart by, and for how long (src/domain/dedup.ts). */
  dedup: DedupChoice;
}

/** Whether the trigger's URL takes deliveries: at work, or paused (they wait for the robot to be resumed). */
export function triggerTakesDeliveries(trigger: WebhookTrigger): boolean {
  return takesDeliveries(trigger.state);
}
