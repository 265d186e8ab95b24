/**
 * Robots: create, read, edit, and the trigger's life: put to work (the card's URL appears),
 * pause (deliveries are held), resume (they run, in arrival order), stop (the URL answers 404),
 * and token rotation (a new URL, the old one kept for a grace period).
 */
import { newId } from '../domain/secrets';
import type { StepDefinition } from '../domain/types';
import { robotHistory } from '../history/reads';
import { robotFields } from '../history/fields';
import { sendTestDelivery } from '../deliveries/test-delivery';
import { conflict, invalidField } from '../core/http-errors';
import { ROBOTS_LISTED } from '../domain/limits';
import { releaseHeld } from '../deliveries/hold';
import { editSteps, StepsEditConflict } from '../robots/steps-versions';
import { RobotLifecycle } from '../robots/lifecycle';
import type { RobotTransition } from '../domain/robot-lifecycle';
import type { RobotDoc } from '../storage/documents';
import { asked, found } from './lookups';
import { route, type ManagementDeps, type ManagementInput, type ManagementRoute } from './deps';
import type { CreateRobotBody, StepBody } from '../contract/requests';
import { MANAGEMENT } from '../contract/management';
import { robotView } from './views';

const stepDefinitions = (steps: StepBody[]): StepDefinition[] =>
  steps.map((s) => ({ name: s.name, type: s.type, templateJson: JSON.stringify(s.template) }));

const robotById = ({ models }: ManagementDeps, id: string) => found('robot', models.Robot.findById(id).lean());

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

async function validTrigger(
  { models }: ManagementDeps,
  trigger: CreateRobotBody['trigger'],
): Promise<RobotDoc['trigger']> {
  if (trigger.appId) {
    const app = await models.App.findById(trigger.appId).lean();
    if (!app) throw invalidField('trigger.appId', 'no such app');
    if (!app.supportsInboundTrigger) throw invalidField('trigger.appId', 'the app does not support inbound triggers');
    return { kind: 'custom', appId: app._id, connectionId: null, identifier: null };
  }
  if (!(await models.Connection.exists({ _id: trigger.connectionId }))) {
    throw invalidField('trigger.connectionId', 'no such connection');
  }
  return { kind: 'stripe', appId: null, connectionId: trigger.connectionId!, events: trigger.events, identifier: null };
}

/**
 * A lifecycle transition on the robot the path names (`/api/robots/:id/<transition>`): the robot as
 * it is after it; 409 for a transition the robot's state refuses (src/domain/robot-lifecycle.ts).
 */
const transition = (name: RobotTransition): ManagementRoute =>
  route(MANAGEMENT[name], async ({ params }, deps) =>
    robotView(await deps.lifecycle[name](await robotById(deps, params.id)), deps.config),
  );

export const ROBOT_ROUTES: ManagementRoute[] = [
  route(MANAGEMENT.createRobot, async ({ body }, deps) => {
    const robot = await deps.models.Robot.create({
      _id: newId(),
      name: body.name,
      state: 'draft',
      trigger: await validTrigger(deps, body.trigger),
      steps: stepDefinitions(body.steps),
      stepsVersion: 0,
      rulesJson: body.rules ? JSON.stringify(body.rules) : null,
      createdAt: new Date(),
    });
    return robotView(robot.toObject(), deps.config);
  }),
  route(
    MANAGEMENT.listRobots,
    /**
     * Robots are few: one read, then each robot's tally by `_id`; without their cards: a webhook
     * URL is read one robot at a time.
     */
    async (_, { models, config }) => {
      const robots = await models.Robot.find().lean();
      robots.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
      const shown = robots.slice(0, ROBOTS_LISTED);
      const histories = await Promise.all(shown.map((r) => robotHistory(models, r._id)));
      return { robots: shown.map((r, i) => robotView(r, config, histories[i], { card: false })) };
    },
  ),
  route(MANAGEMENT.getRobot, async ({ params }, deps) => {
    const robot = await robotById(deps, params.id);
    return robotView(robot, deps.config, await robotHistory(deps.models, robot._id));
  }),
  route(MANAGEMENT.robotFields, async ({ params }, deps) => {
    const robot = await robotById(deps, params.id);
    return robotFields(deps.models, robot._id);
  }),
  route(MANAGEMENT.sendTestDelivery, async ({ params, body }, deps) => {
    const robot = await robotById(deps, params.id);
    return { deliveryId: await asked(sendTestDelivery(deps, robot, body)) };
  }),
  route(
    MANAGEMENT.editRobot,
    /** New steps apply to deliveries accepted from then on (src/robots/steps-versions.ts). */
    async ({ params, body }, deps) => {
      const { models, triggers, config } = deps;
      const robot = await robotById(deps, params.id);
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
      await triggers.forget(robot.trigger.identifier);
      return robotView(await robotById(deps, params.id), config);
    },
  ),
  transition('start'),
  transition('stop'),
  transition('pause'),
  transition('resume'),
  route(MANAGEMENT.rotateToken, async ({ params, body }, deps) => {
    return robotView(await deps.lifecycle.rotate(await robotById(deps, params.id), body.graceHours), deps.config);
  }),
];
