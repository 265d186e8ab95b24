/**
 * Robots: create, read, edit, and the trigger's life: put to work (the card's URL appears),
 * pause (deliveries are held), resume (they run, in arrival order), stop (the URL answers 404),
 * and token rotation (a new URL, the old one kept for a grace period).
 */
import { robotHistory } from '../history/reads';
import { robotFields } from '../history/fields';
import { sendTestDelivery } from '../deliveries/test-delivery';
import { ROBOTS_LISTED } from '../domain/limits';
import type { RobotTransition } from '../domain/robot-lifecycle';
import { asked, found } from './lookups';
import { route, type ManagementDeps, type ManagementRoute } from './deps';
import { MANAGEMENT } from '../contract/management';
import { robotView } from './views';
import { createRobot, editRobot } from '../robots/edit';

const robotById = ({ models }: ManagementDeps, id: string) => found('robot', models.Robot.findById(id).lean());

/**
 * A lifecycle transition on the robot the path names (`/api/robots/:id/<transition>`): the robot as
 * it is after it; 409 for a transition the robot's state refuses (src/domain/robot-lifecycle.ts).
 */
const transition = (name: RobotTransition): ManagementRoute =>
  route(MANAGEMENT[name], async ({ params }, deps) =>
    robotView(await deps.lifecycle[name](await robotById(deps, params.id)), deps.config),
  );

export const ROBOT_ROUTES: ManagementRoute[] = [
  route(MANAGEMENT.createRobot, async ({ body }, deps) => robotView(await createRobot(deps.models, body), deps.config)),
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
      await editRobot(deps.models, await robotById(deps, params.id), body, (id) => deps.triggers.forget(id));
      return robotView(await robotById(deps, params.id), deps.config);
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
