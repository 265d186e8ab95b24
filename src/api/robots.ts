/**
 * Robots: create, read, edit, and the trigger's life: put to work (the card's URL appears),
 * pause (deliveries are held), resume (they run, in arrival order), stop (the URL answers 404),
 * and token rotation (a new URL, the old one kept for a grace period).
 */
import { robotHistory } from '../history/reads';
import { robotFields } from '../history/fields';
import { sendTestDelivery } from '../deliveries/test-delivery';
import type { RobotTransition } from '../domain/robot-lifecycle';
import { asked, ours, pageOf } from './lookups';
import { byId } from '../storage/by-id';
import type { RobotDoc } from '../storage/documents';
import type { Caller } from '../domain/workspaces';
import { route, type ManagementDeps, type ManagementRoute } from './deps';
import { MANAGEMENT } from '../contract/management';
import { robotView } from './views';
import { createRobot, editRobot } from '../robots/edit';

/** The robot the path names, in the caller's workspace (404 otherwise). */
const robotById = ({ models }: ManagementDeps, id: string, caller: Caller) =>
  ours('robot', byId<RobotDoc>(models.Robot, id), caller);

/**
 * A lifecycle transition on the robot the path names (`/api/robots/:id/<transition>`): the robot as
 * it is after it; 409 for a transition the robot's state refuses (src/domain/robot-lifecycle.ts).
 */
const transition = (name: RobotTransition): ManagementRoute =>
  route(MANAGEMENT[name], async ({ params, caller }, deps) =>
    robotView(await deps.lifecycle[name](await robotById(deps, params.id, caller)), deps.config),
  );

export const ROBOT_ROUTES: ManagementRoute[] = [
  route(MANAGEMENT.createRobot, async ({ body, caller }, deps) => {
    const robot = await createRobot(deps.models, caller.workspaceId, body);
    await deps.directory.list(robot);
    return robotView(robot, deps.config);
  }),
  route(
    MANAGEMENT.listRobots,
    /**
     * A page of the workspace's directory (src/workspaces/robot-directory.ts), then each shown
     * robot and its tally by `_id`; without their cards: a webhook URL is read one robot at a time.
     */
    async ({ query: { limit, cursor, search }, caller }, { models, config, directory }) => {
      const page = await pageOf(directory.page(caller.workspaceId, limit, search, cursor));
      const robots = (await Promise.all(page.ids.map((id) => byId<RobotDoc>(models.Robot, id)))).filter(
        (r): r is RobotDoc => r !== null,
      );
      const histories = await Promise.all(robots.map((r) => robotHistory(models, r._id)));
      return {
        robots: robots.map((r, i) => robotView(r, config, histories[i], { card: false })),
        nextCursor: page.nextCursor,
      };
    },
  ),
  route(MANAGEMENT.getRobot, async ({ params, caller }, deps) => {
    const robot = await robotById(deps, params.id, caller);
    return robotView(robot, deps.config, await robotHistory(deps.models, robot._id));
  }),
  route(MANAGEMENT.robotFields, async ({ params, caller }, deps) => {
    const robot = await robotById(deps, params.id, caller);
    return robotFields(deps.models, robot._id);
  }),
  route(MANAGEMENT.sendTestDelivery, async ({ params, body, caller }, deps) => {
    const robot = await robotById(deps, params.id, caller);
    return { deliveryId: await asked(sendTestDelivery(deps, robot, body)) };
  }),
  route(
    MANAGEMENT.editRobot,
    /** New steps apply to deliveries accepted from then on (src/robots/steps-versions.ts). */
    async ({ params, body, caller }, deps) => {
      await editRobot(deps.models, await robotById(deps, params.id, caller), body, (id) => deps.triggers.forget(id));
      const robot = await robotById(deps, params.id, caller);
      if (body.name) await deps.directory.list(robot);
      return robotView(robot, deps.config);
    },
  ),
  transition('start'),
  transition('stop'),
  transition('pause'),
  transition('resume'),
  route(MANAGEMENT.rotateToken, async ({ params, body, caller }, deps) => {
    const robot = await robotById(deps, params.id, caller);
    return robotView(await deps.lifecycle.rotate(robot, body.graceHours), deps.config);
  }),
];
