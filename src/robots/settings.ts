/**
 * What a worker needs of a robot to prepare its deliveries and execute its steps: the robot, its
 * body format (the custom app's; json for the payment provider) and its steps. Each worker trusts
 * what it read for ROBOT_CACHE_MS.
 */
import { readsFormEnvelope, type SenderName } from '../domain/senders/catalog';
import { ApplicationFailure } from '@temporalio/common';
import { ROBOTS_KEPT } from '../domain/limits';
import type { BodyFormat, StepDefinition } from '../domain/types';
import type { RobotDoc } from '../storage/documents';
import type { Models } from '../storage/models';

/** How long a worker trusts what it read of a robot (its steps, body format and event filter). */
const ROBOT_CACHE_MS = 60_000;

export interface RobotSettings extends BodyReading {
  robot: RobotDoc;
  steps: StepDefinition[];
}

/** How a robot's deliveries are read. */
export interface BodyReading {
  /** The body format: its custom app's, json for the payment provider. */
  format: BodyFormat;
  /** Whether a json body may come as a form too (its app's sender posts both: GitHub, Slack). */
  formEnvelope: boolean;
  /** Its app's sender (src/domain/senders/catalog.ts), or null. */
  sender: SenderName | null;
}

/** How a robot's deliveries are read, from its custom app. */
export async function robotBodyReading(models: Models, robot: RobotDoc): Promise<BodyReading> {
  if (robot.trigger.kind !== 'custom') return { format: 'json', formEnvelope: false, sender: null };
  const app = await models.App.findById(robot.trigger.appId, { bodyFormat: 1, sender: 1 }).lean();
  const format = app?.bodyFormat ?? 'json';
  const sender = app?.sender ?? null;
  return { format, formEnvelope: readsFormEnvelope(format, sender), sender };
}

export class RobotSettingsCache {
  private readonly robots = new Map<string, RobotSettings & { expires: number }>();

  constructor(private readonly models: Models) {}

  async get(robotId: string): Promise<RobotSettings> {
    const hit = this.robots.get(robotId);
    if (hit && hit.expires > Date.now()) return hit;
    const robot = await this.models.Robot.findById(robotId).lean();
    if (!robot) throw ApplicationFailure.nonRetryable(`robot ${robotId} no longer exists`, 'RobotNotFound');
    const reading = await robotBodyReading(this.models, robot);
    const settings = {
      robot,
      ...reading,
      steps: robot.steps,
      expires: Date.now() + ROBOT_CACHE_MS,
    };
    if (this.robots.size >= ROBOTS_KEPT) this.robots.delete(this.robots.keys().next().value!);
    this.robots.set(robotId, settings);
    return settings;
  }
}
