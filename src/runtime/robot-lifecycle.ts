/**
 * The robot's lifecycle as the process runs it (src/robots/lifecycle.ts): wired to the receivers'
 * copy of each trigger, and releasing held deliveries in the background (src/deliveries/hold.ts).
 */
import type { ManagementInput } from '../api/deps';
import { releasePause } from '../deliveries/hold';
import { RobotLifecycle } from '../robots/lifecycle';

/** The robot's lifecycle (src/robots/lifecycle.ts); a release runs in the background (src/deliveries/hold.ts). */
export function robotLifecycle(deps: ManagementInput): RobotLifecycle {
  const { models, config, triggers, log } = deps;
  return new RobotLifecycle({
    models,
    secretsKey: config.secretsKey,
    forget: (identifier) => triggers.forget(identifier),
    release: (robot) => {
      const { heldSince } = robot;
      deps.background.run(async (signal) => {
        try {
          await releasePause(deps, robot._id, heldSince, signal);
        } catch (err) {
          log.warn('releasing held deliveries stopped; each goes on within an hour', {
            robotId: robot._id,
            err,
          });
        }
      });
    },
  });
}
