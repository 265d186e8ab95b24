/**
 * A robot created, and edited: its name, its steps and its trigger rules. New steps and rules apply
 * to deliveries accepted from then on (./steps-versions.ts); a trigger names an app that takes
 * inbound triggers, or a payment provider connection, and is checked to exist.
 */
import type { z } from 'zod';
import { conflict, invalidField, workspaceFull } from '../core/http-errors';
import { newId } from '../domain/secrets';
import type { StepDefinition } from '../domain/types';
import type { CreateRobotBody, StepBody, updateRobotBody } from '../contract/requests';
import { byId } from '../storage/by-id';
import type { AppDoc, ConnectionDoc, RobotDoc } from '../storage/documents';
import type { Models } from '../storage/models';
import { editSteps, StepsEditConflict } from './steps-versions';

const stepDefinitions = (steps: StepBody[]): StepDefinition[] =>
  steps.map((s) => ({ name: s.name, type: s.type, templateJson: JSON.stringify(s.template) }));

/** The trigger a new robot's body asks for, its app or connection checked (400 naming the field otherwise). */
async function validTrigger(
  models: Models,
  workspaceId: string,
  trigger: CreateRobotBody['trigger'],
): Promise<RobotDoc['trigger']> {
  if (trigger.appId) {
    const app = await byId<AppDoc>(models.App, trigger.appId);
    // Another workspace's app is no app of this one.
    if (!app || app.workspaceId !== workspaceId) throw invalidField('trigger.appId', 'no such app');
    if (!app.supportsInboundTrigger) throw invalidField('trigger.appId', 'the app does not support inbound triggers');
    return { kind: 'custom', appId: app._id, connectionId: null, identifier: null };
  }
  const connection = await byId<ConnectionDoc>(models.Connection, trigger.connectionId!);
  if (!connection || connection.workspaceId !== workspaceId) {
    throw invalidField('trigger.connectionId', 'no such connection');
  }
  return { kind: 'stripe', appId: null, connectionId: trigger.connectionId!, events: trigger.events, identifier: null };
}

/**
 * A new robot, a draft: not yet at work, so with no URL; refused 409 when its workspace holds
 * `maxRobots` already (MAX_ROBOTS_PER_WORKSPACE, src/domain/limits/workspace-sizes.ts).
 */
export async function createRobot(
  models: Models,
  workspaceId: string,
  body: CreateRobotBody,
  maxRobots: number,
): Promise<RobotDoc> {
  const robots = await models.Robot.countDocuments({ workspaceId });
  if (robots >= maxRobots) throw workspaceFull('MAX_ROBOTS_PER_WORKSPACE', robots, 'robots');
  const robot = await models.Robot.create({
    _id: newId(),
    workspaceId,
    name: body.name,
    state: 'draft',
    trigger: await validTrigger(models, workspaceId, body.trigger),
    steps: stepDefinitions(body.steps),
    stepsVersion: 0,
    rulesJson: body.rules ? JSON.stringify(body.rules) : null,
    createdAt: new Date(),
  });
  return robot.toObject();
}

/**
 * Edits the robot (409 when another edit of its steps came first); `forget` then drops the
 * receivers' copy of its trigger, which carries its steps version and rule headers.
 */
export async function editRobot(
  models: Models,
  robot: RobotDoc,
  body: z.output<typeof updateRobotBody>,
  forget: (identifier: string | null) => Promise<void>,
): Promise<void> {
  if (body.steps || body.rules !== undefined) {
    try {
      await editSteps(models, robot, {
        ...(body.steps ? { steps: stepDefinitions(body.steps) } : {}),
        ...(body.rules !== undefined ? { rules: body.rules } : {}),
      });
    } catch (err) {
      if (err instanceof StepsEditConflict) throw conflict(err.message);
      throw err;
    }
  }
  if (body.name) await models.Robot.updateOne({ _id: robot._id }, { $set: { name: body.name } });
  await forget(robot.trigger.identifier);
}
