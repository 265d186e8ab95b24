/**
 * One trigger as the receiver reads it from the store: the robot of that identifier (a filter on
 * `trigger.identifier`, which FerretDB evaluates over every robot) and what its trigger checks a
 * request with (its app's or connection's read). What the trigger cache (./trigger-cache.ts) keeps.
 */
import { triggerChecks } from '../robots/trigger-verification';
import { DEFAULT_WORKSPACE } from '../domain/workspaces';
import type { Models } from '../storage/models';
import { tokenHashes } from '../robots/trigger-tokens';
import { ruleHeaders } from '../domain/trigger-rules';
import { currentVersion } from '../robots/steps-versions';
import type { WebhookTrigger } from '../deliveries/webhook-trigger';

/** Reads one trigger by its identifier; null when no robot has it or its trigger has no token. */
export type TriggerLoad = (identifier: string) => Promise<WebhookTrigger | null>;

export function triggerLoad(models: Models, secretsKeys: readonly Buffer[]): TriggerLoad {
  return async (identifier) => {
    const robot = await models.Robot.findOne({ 'trigger.identifier': identifier }).lean();
    const tokens = robot && tokenHashes(robot.trigger);
    if (!robot || !tokens) return null;
    const { verification, format, dedup, pendingSecrets } = await triggerChecks(models, secretsKeys, robot);
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
  };
}
