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
import { conflict, invalidField } from '../http';
import { ROBOTS_LISTED } from '../domain/limits';
import { releaseHeld } from '../deliveries/hold';
import { editSteps, StepsEditConflict } from '../robots/steps-versions';
import { RobotLifecycle } from '../robots/lifecycle';
import { ROBOT_TRANSITIONS, type RobotTransition } from '../domain/robot-lifecycle';
import type { RobotDoc } from '../storage/documents';
import { asked, found } from './lookups';
import type { ManagementDeps, ManagementInput } from './deps';
import type { CreateRobotBody, StepBody } from './schemas';
import { route, type ApiRoute } from './route';
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
const transition = (name: RobotTransition, summary: string): ApiRoute =>
  route({
    method: 'post',
    path: `/api/robots/:id/${name}`,
    summary,
    admin: true,
    answers: ROBOT_TRANSITIONS[name].refused
      ? { 200: 'Robot', 404: 'Error', 409: 'Error' }
      : { 200: 'Robot', 404: 'Error' },
    async handle({ params }, deps) {
      return robotView(await deps.lifecycle[name](await robotById(deps, params.id)), deps.config);
    },
  });

export const ROBOT_ROUTES: ApiRoute[] = [
  route({
    method: 'post',
    path: '/api/robots',
    summary: 'Create a robot (not yet at work)',
    admin: true,
    body: 'CreateRobot',
    answers: { 201: 'Robot', 400: 'Error' },
    async handle({ body }, deps) {
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
    },
  }),
  route({
    method: 'get',
    path: '/api/robots',
    summary: 'Every robot (up to 1,000, newest first) with its card and counts',
    admin: true,
    answers: { 200: 'Robots' },
    /**
     * Robots are few: one read, then each robot's tally by `_id`; without their cards: a webhook
     * URL is read one robot at a time.
     */
    async handle(_, { models, config }) {
      const robots = await models.Robot.find().lean();
      robots.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
      const shown = robots.slice(0, ROBOTS_LISTED);
      const histories = await Promise.all(shown.map((r) => robotHistory(models, r._id)));
      return { robots: shown.map((r, i) => robotView(r, config, histories[i], { card: false })) };
    },
  }),
  route({
    method: 'get',
    path: '/api/robots/:id',
    summary: 'A robot with its card and run counts',
    admin: true,
    answers: { 200: 'Robot', 404: 'Error' },
    async handle({ params }, deps) {
      const robot = await robotById(deps, params.id);
      return robotView(robot, deps.config, await robotHistory(deps.models, robot._id));
    },
  }),
  route({
    method: 'get',
    path: '/api/robots/:id/fields',
    summary:
      "The fields the robot's last 100 deliveries carried: each {{trigger.*}} placeholder, its types and an example",
    admin: true,
    answers: { 200: 'RobotFields', 404: 'Error' },
    async handle({ params }, deps) {
      const robot = await robotById(deps, params.id);
      return robotFields(deps.models, robot._id);
    },
  }),
  route({
    method: 'post',
    path: '/api/robots/:id/test-delivery',
    summary: "Send a test delivery: a body in the robot's format (its sample when none is given), marked as a test",
    admin: true,
    body: 'TestDelivery',
    answers: { 202: 'TestDeliverySent', 400: 'Error', 404: 'Error', 409: 'Error' },
    async handle({ params, body }, deps) {
      const robot = await robotById(deps, params.id);
      return { deliveryId: await asked(sendTestDelivery(deps, robot, body)) };
    },
  }),
  route({
    method: 'patch',
    path: '/api/robots/:id',
    summary: "Edit a robot's name, steps or trigger rules (new ones apply to deliveries accepted from then on)",
    admin: true,
    body: 'UpdateRobot',
    answers: { 200: 'Robot', 400: 'Error', 404: 'Error', 409: 'Error' },
    /** New steps apply to deliveries accepted from then on (src/robots/steps-versions.ts). */
    async handle({ params, body }, deps) {
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
  }),
  transition('start', 'Put the robot to work: its webhook URL appears on the card'),
  transition('stop', 'Stop the robot: its URL answers 404'),
  transition('pause', 'Pause the robot: its URL keeps answering 200 and deliveries wait; nothing runs'),
  transition('resume', 'Resume the robot: what waited runs in arrival order, then new deliveries as usual'),
  route({
    method: 'post',
    path: '/api/robots/:id/trigger/rotate',
    summary: 'A new token (and URL) for the trigger; the old one keeps working for graceHours',
    admin: true,
    body: 'RotateToken',
    answers: { 200: 'Robot', 400: 'Error', 404: 'Error', 409: 'Error' },
    async handle({ params, body }, deps) {
      return robotView(await deps.lifecycle.rotate(await robotById(deps, params.id), body.graceHours), deps.config);
    },
  }),
];
