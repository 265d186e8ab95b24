/**
 * Which steps a run executes, and which trigger rules its delivery meets: the robot's steps and
 * rules **as they were when its delivery was accepted** (one version holds both).
 * The receiver notes the robot's steps version in the delivery, and every run of the delivery (all
 * rows of a CSV, a run retried, a delivery held while the robot was paused) executes that version,
 * even if the robot is edited meanwhile. A replay is a new delivery: it takes the steps of its time.
 *
 * A robot's steps start at version 0, kept in the robot itself. Each edit (of the steps, the rules
 * or both) stores the version it replaces and the new one as documents that never change
 * (`<robotId>:<version>`), so a worker may keep any version it read for as long as it likes, and
 * reads it by `_id`.
 */
import { ApplicationFailure } from '@temporalio/common';
import { ROBOTS_KEPT } from '../domain/limits';
import type { StepDefinition } from '../domain/types';
import type { TriggerRules } from '../domain/trigger-rules';
import type { RobotDoc, RobotStepsDoc } from '../storage/documents';
import type { Models } from '../storage/models';
import { claimById, insertOnce } from '../storage/writes';

const versionId = (robotId: string, version: number) => `${robotId}:${version}`;

/** Two edits of one robot's steps at once: the later one is refused and may be sent again. */
export class StepsEditConflict extends Error {
  override name = 'StepsEditConflict';
}

/** One version of a robot: the steps its runs execute and the rules its deliveries meet. */
interface RobotVersion {
  steps: StepDefinition[];
  rules: TriggerRules | null;
}

/** What an edit changes; what it leaves out stays as it is. */
interface VersionEdit {
  steps?: StepDefinition[];
  /** New rules, or null to remove them. */
  rules?: TriggerRules | null;
}

const rulesOf = (rulesJson: string | null | undefined): TriggerRules | null =>
  rulesJson ? (JSON.parse(rulesJson) as TriggerRules) : null;

/** The robot's current steps and rules. */
export const currentVersion = (robot: RobotDoc): RobotVersion => ({
  steps: robot.steps,
  rules: rulesOf(robot.rulesJson),
});

/**
 * Stores the robot's next version (its steps and rules, as edited) and makes it the robot's;
 * returns the version. The version replaced is stored first, so deliveries accepted before still find it.
 */
export async function editSteps(models: Models, robot: RobotDoc, edit: VersionEdit): Promise<number> {
  const from = robot.stepsVersion ?? 0;
  const at = new Date();
  const doc = (version: number, v: { steps: StepDefinition[]; rulesJson: string | null }): RobotStepsDoc => ({
    _id: versionId(robot._id, version),
    robotId: robot._id,
    version,
    steps: v.steps,
    rulesJson: v.rulesJson,
    createdAt: at,
  });
  const next = {
    steps: edit.steps ?? robot.steps,
    rulesJson: edit.rules === undefined ? (robot.rulesJson ?? null) : edit.rules && JSON.stringify(edit.rules),
  };
  await insertOnce(models.RobotSteps, [doc(from, { steps: robot.steps, rulesJson: robot.rulesJson ?? null })]);
  if (!(await claimById(models.RobotSteps, doc(from + 1, next)))) {
    // Another edit took this version: one going on now, or one that stopped before it changed the
    // robot. Either way the robot moves on to it (as that edit would), so the edit sent again
    // takes the next version instead of meeting this one forever.
    const taken = await models.RobotSteps.findById(versionId(robot._id, from + 1)).lean();
    if (taken) await advance(models, robot._id, from, { steps: taken.steps, rulesJson: taken.rulesJson ?? null });
    throw new StepsEditConflict('the steps were edited at the same time; send the edit again');
  }
  await advance(models, robot._id, from, next);
  return from + 1;
}

/** Makes version `from + 1` the robot's steps and rules, unless the robot has moved past `from`. */
async function advance(
  models: Models,
  robotId: string,
  from: number,
  { steps, rulesJson }: { steps: StepDefinition[]; rulesJson: string | null },
): Promise<void> {
  const at = from === 0 ? { $in: [0, null] } : from;
  await models.Robot.updateOne(
    { _id: robotId, stepsVersion: at },
    { $set: { steps, rulesJson, stepsVersion: from + 1 } },
  );
}

/** Versions of robots a worker or the API has read; a version never changes, so none goes stale. */
export class StepsVersions {
  private readonly kept = new Map<string, RobotVersion>();

  constructor(private readonly models: Models) {}

  /** The steps of a version. */
  async get(robotId: string, version: number): Promise<StepDefinition[]> {
    return (await this.version(robotId, version)).steps;
  }

  /** A version's steps and rules. */
  async version(robotId: string, version: number): Promise<RobotVersion> {
    const id = versionId(robotId, version);
    const hit = this.kept.get(id);
    if (hit) return hit;
    let stored: Pick<RobotStepsDoc, 'steps' | 'rulesJson'> | null = await this.models.RobotSteps.findById(id).lean();
    if (!stored && version === 0) {
      // Version 0 lives in the robot until the first edit, which stores it as a document before it
      // changes the robot: a robot past version 0 is read again from that document, never its steps of now.
      const robot = await this.models.Robot.findById(robotId, { steps: 1, rulesJson: 1, stepsVersion: 1 }).lean();
      stored = (robot?.stepsVersion ?? 0) === 0 ? robot : await this.models.RobotSteps.findById(id).lean();
    }
    if (!stored?.steps) {
      throw ApplicationFailure.nonRetryable(`robot ${robotId} has no steps version ${version}`, 'StepsNotFound');
    }
    const kept: RobotVersion = { steps: stored.steps, rules: rulesOf(stored.rulesJson) };
    if (this.kept.size >= ROBOTS_KEPT) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(id, kept);
    return kept;
  }
}
