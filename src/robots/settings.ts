/**
 * What a worker needs of a robot to prepare its deliveries and execute its steps: the robot, its
 * body format (the custom app's; json for the payment provider) and its steps. Each worker trusts
 * what it read for ROBOT_CACHE_MS.
 */
import { ApplicationFailure } from '@temporalio/common';
import { ROBOTS_KEPT } from '../domain/limits';
import type { BodyFormat, StepDefinition } from '../domain/types';
import type { RobotDoc } from '../storage/documents';
import type { Models } from '../storage/models';

/** How long a worker trusts what it read of a robot (its steps, body format and event filter). */
const ROBOT_CACHE_MS = 60_000;

export interface RobotSettings {
  robot: RobotDoc;
  format: BodyFormat;
  steps: StepDefinition[];
}

/** The body format a robot's deliveries are parsed in: its custom app's, json for the payment provider. */
export async function robotBodyFormat(models: Models, robot: RobotDoc): Promise<BodyFormat> {
  if (robot.trigger.kind !== 'custom') return 'json';
  return (await models.App.findById(robot.trigger.appId, { bodyFormat: 1 }).lean())?.bodyFormat ?? 'json';
}

export class RobotSettingsCache {
  private readonly robots = new Map<string, RobotSettings & { expires: number }>();

  constructor(private readonly models: Models) {}

  async get(robotId: string): Promise<RobotSettings> {
    const hit = this.robots.get(robotId);
    if (hit && hit.expires > Date.now()) return hit;
    const robot = await this.models.Robot.findById(robotId).lean();
    if (!robot) throw ApplicationFailure.nonRetryable(`robot ${robotId} no longer exists`, 'RobotNotFound');
    const format = await robotBodyFormat(this.models, robot);
    const settings = { robot, format, steps: robot.steps as StepDefinition[], expires: Date.now() + ROBOT_CACHE_MS };
    if (this.robots.size >= ROBOTS_KEPT) this.robots.delete(this.robots.keys().next().value!);
    this.robots.set(robotId, settings);
    return settings;
  }
}
