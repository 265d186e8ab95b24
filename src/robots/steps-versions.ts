/**
 * Which steps a run executes: the robot's steps **as they were when its delivery was accepted**.
 * The receiver notes the robot's steps version in the delivery, and every run of the delivery (all
 * rows of a CSV, a run retried, a delivery held while the robot was paused) executes that version,
 * even if the robot is edited meanwhile. A replay is a new delivery: it takes the steps of its time.
 *
 * A robot's steps start at version 0, kept in the robot itself. Each edit stores the version it
 * replaces and the new one as documents that never change (`<robotId>:<version>`), so a worker may
 * keep any version it read for as long as it likes, and reads it by `_id`.
 */
import { ApplicationFailure } from '@temporalio/common';
import { ROBOTS_KEPT } from '../domain/limits';
import type { StepDefinition } from '../domain/types';
import type { RobotDoc, RobotStepsDoc } from '../storage/documents';
import type { Models } from '../storage/models';
import { claimById, insertOnce } from '../storage/writes';

const versionId = (robotId: string, version: number) => `${robotId}:${version}`;

/** Two edits of one robot's steps at once: the later one is refused and may be sent again. */
export class StepsEditConflict extends Error {
  override name = 'StepsEditConflict';
}

/**
 * Stores new steps as the robot's next version and makes them the robot's steps; returns the
 * version. The version replaced is stored first, so deliveries accepted before still find it.
 */
export async function editSteps(models: Models, robot: RobotDoc, steps: StepDefinition[]): Promise<number> {
  const from = robot.stepsVersion ?? 0;
  const at = new Date();
  const doc = (version: number, s: StepDefinition[]): RobotStepsDoc => ({
    _id: versionId(robot._id, version),
    robotId: robot._id,
    version,
    steps: s,
    createdAt: at,
  });
  await insertOnce(models.RobotSteps, [doc(from, robot.steps)]);
  if (!(await claimById(models.RobotSteps, doc(from + 1, steps)))) {
    // Another edit took this version: one going on now, or one that stopped before it changed the
    // robot. Either way the robot moves on to it (as that edit would), so the edit sent again
    // takes the next version instead of meeting this one forever.
    const taken = await models.RobotSteps.findById(versionId(robot._id, from + 1)).lean();
    if (taken) await advance(models, robot._id, from, taken.steps);
    throw new StepsEditConflict('the steps were edited at the same time; send the edit again');
  }
  await advance(models, robot._id, from, steps);
  return from + 1;
}

/** Makes version `from + 1` (`steps`) the robot's steps, unless the robot has moved past `from`. */
async function advance(models: Models, robotId: string, from: number, steps: StepDefinition[]): Promise<void> {
  const at = from === 0 ? { $in: [0, null] } : from;
  await models.Robot.updateOne({ _id: robotId, stepsVersion: at }, { $set: { steps, stepsVersion: from + 1 } });
}

/** Versions of robots' steps a worker or the API has read; a version never changes, so none goes stale. */
export class StepsVersions {
  private readonly kept = new Map<string, StepDefinition[]>();

  constructor(private readonly models: Models) {}

  async get(robotId: string, version: number): Promise<StepDefinition[]> {
    const id = versionId(robotId, version);
    const hit = this.kept.get(id);
    if (hit) return hit;
    const stored = await this.models.RobotSteps.findById(id).lean();
    let steps = stored?.steps;
    if (!steps && version === 0) {
      // Version 0 lives in the robot until the first edit, which stores it as a document before it
      // changes the robot: a robot past version 0 is read again from that document, never its steps of now.
      const robot = await this.models.Robot.findById(robotId, { steps: 1, stepsVersion: 1 }).lean();
      steps =
        (robot?.stepsVersion ?? 0) === 0 ? robot?.steps : (await this.models.RobotSteps.findById(id).lean())?.steps;
    }
    if (!steps) {
      throw ApplicationFailure.nonRetryable(`robot ${robotId} has no steps version ${version}`, 'StepsNotFound');
    }
    if (this.kept.size >= ROBOTS_KEPT) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(id, steps);
    return steps;
  }
}
