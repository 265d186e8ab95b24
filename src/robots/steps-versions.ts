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
  if (!(await claimById(models.RobotSteps, doc(from + 1, steps))))
    throw new StepsEditConflict('the steps were edited at the same time; send the edit again');
  await models.Robot.updateOne({ _id: robot._id }, { $set: { steps, stepsVersion: from + 1 } });
  return from + 1;
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
    if (!steps && version === 0) steps = (await this.models.Robot.findById(robotId, { steps: 1 }).lean())?.steps;
    if (!steps) {
      throw ApplicationFailure.nonRetryable(`robot ${robotId} has no steps version ${version}`, 'StepsNotFound');
    }
    if (this.kept.size >= ROBOTS_KEPT) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(id, steps);
    return steps;
  }
}
