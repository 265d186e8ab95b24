/**
 * The robot's lifecycle transitions (src/domain/robot-lifecycle.ts says which are allowed): put to
 * work (its URL and token are made the first time only), pause, resume, stop, and token rotation.
 * The API only calls these. Each change is known at once to this process's receiver and, through
 * the shared stamp, to the others (src/receiver/trigger-cache.ts); a transition that leaves a pause
 * or a stop for work hands the robot to `release` (the delivery feature's release of held
 * deliveries, src/deliveries/hold.ts), which runs in the background.
 */
import { triggerIdentifier } from '../domain/ids';
import { releasesHeld, ROBOT_TRANSITIONS, runsDeliveries, type RobotTransition } from '../domain/robot-lifecycle';
import { newId } from '../domain/secrets';
import { conflict, notFound } from '../core/http-errors';
import { byId } from '../storage/by-id';
import type { RobotDoc } from '../storage/documents';
import type { Models } from '../storage/models';
import { newTokenFields, rotateToken } from './trigger-tokens';

/**
 * Whether a held delivery of the robot may go on: it is at work (read from the store, not a cache).
 * A robot paused or stopped keeps it; one that no longer exists lets it go on, to fail in preparation.
 */
export async function robotRunsDeliveries(models: Models, robotId: string): Promise<boolean> {
  const robot = await models.Robot.findById(robotId, { state: 1 }).lean();
  return !robot || runsDeliveries(robot.state);
}

interface LifecycleDeps {
  models: Models;
  secretsKey: Buffer;
  /** Tells the receivers the robot's trigger changed. */
  forget(identifier: string | null): Promise<void>;
  /** Releases what was held for the robot since `heldSince` (in the background). */
  release(robot: RobotDoc & { heldSince: Date }): void;
}

export class RobotLifecycle {
  constructor(private readonly deps: LifecycleDeps) {}

  /** Puts the robot to work; its webhook URL and token are made the first time only. */
  async start(robot: RobotDoc): Promise<RobotDoc> {
    if (!robot.trigger.identifier) {
      const { tokenHash, tokenSealed } = newTokenFields(this.deps.secretsKey);
      const identifier = triggerIdentifier(robot.trigger.kind, newId());
      // Only a robot without an identifier gets one, so two concurrent starts agree on the URL.
      await this.deps.models.Robot.updateOne(
        { _id: robot._id, 'trigger.identifier': null },
        {
          $set: {
            'trigger.identifier': identifier,
            'trigger.tokenHash': tokenHash,
            'trigger.tokenSealed': tokenSealed,
          },
        },
      );
    }
    return this.move(robot, 'start');
  }

  stop(robot: RobotDoc): Promise<RobotDoc> {
    return this.move(robot, 'stop');
  }

  /** Deliveries keep being accepted and are held. Each pause of a robot at work begins anew. */
  pause(robot: RobotDoc): Promise<RobotDoc> {
    return this.move(robot, 'pause', { heldSince: runsDeliveries(robot.state) ? new Date() : robot.heldSince });
  }

  resume(robot: RobotDoc): Promise<RobotDoc> {
    return this.move(robot, 'resume');
  }

  /** A new token (a new URL); the old one is still taken for `graceHours`. */
  async rotate(robot: RobotDoc, graceHours: number): Promise<RobotDoc> {
    if (!robot.trigger.identifier) throw conflict('the robot has no URL yet: put it to work first');
    await rotateToken(this.deps.models, this.deps.secretsKey, robot, graceHours);
    await this.deps.forget(robot.trigger.identifier);
    return (await byId<RobotDoc>(this.deps.models.Robot, robot._id))!;
  }

  private async move(robot: RobotDoc, transition: RobotTransition, more: Partial<RobotDoc> = {}): Promise<RobotDoc> {
    const { from, to, refused } = ROBOT_TRANSITIONS[transition];
    if (!from.includes(robot.state)) throw conflict(refused);
    const moved = await this.deps.models.Robot.findByIdAndUpdate(
      robot._id,
      { $set: { state: to, ...more } },
      { returnDocument: 'after' },
    ).lean();
    if (!moved) throw notFound('robot not found');
    await this.deps.forget(moved.trigger.identifier);
    const { heldSince } = robot;
    if (releasesHeld(transition, robot.state) && heldSince) this.deps.release({ ...robot, heldSince });
    return moved;
  }
}
