/**
 * The robot's lifecycle as the process runs it (src/robots/lifecycle.ts): wired to the receivers'
 * copy of each trigger, and releasing held deliveries in the background (src/deliveries/hold.ts).
 */
import type { ManagementInput } from '../api/deps';
import { releaseHeld } from '../deliveries/hold';
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
          await releaseHeld(deps, robot._id, heldSince, signal);
          // Cleared only while no pause came since: a later pause's deliveries wait for its own resume.
          if (!signal.aborted)
            await models.Robot.updateOne({ _id: robot._id, heldSince }, { $set: { heldSince: null } });
        } catch (err) {
          log.warn('releasing held deliveries stopped; each goes on within an hour', {
            robotId: robot._id,
            err: String(err),
          });
        }
      });
    },
  });
}
