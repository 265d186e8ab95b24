/**
 * Robots: create, read, edit, and the trigger's life: put to work (the card's URL appears),
 * pause (deliveries are held), resume (they run, in arrival order), stop (the URL answers 404),
 * and token rotation (a new URL, the old one kept for a grace period).
 */
import { robotHistory } from '../history/reads';
import { robotFields } from '../history/fields';
import { sendTestDelivery } from '../deliveries/test-delivery';
import type { RobotTransition } from '../domain/robot-lifecycle';
import { asked, found, pageOf } from './lookups';
import { invalidField } from '../core/http-errors';
import { byId } from '../storage/by-id';
import type { Caller } from '../domain/workspaces';
import { route, type ManagementDeps, type ManagementRoute } from './deps';
import { MANAGEMENT } from '../contract/management';
import { robotView } from './views';
import { allows } from '../domain/workspaces';
import { Throttle } from '../core/throttle';
import { THROTTLE_ENTRIES, URL_READ_RECORDED_EVERY_MS } from '../domain/limits';
import type { RobotHistory } from '../history/reads';
import { confirmHandshakeSecret } from '../robots/handshake-secrets';
import { SENDERS } from '../domain/senders/catalog';
import type { AppDoc, RobotDoc } from '../storage/documents';
import { createRobot, editRobot } from '../robots/edit';

/**
 * A lifecycle transition on the robot the path names (`/api/robots/:id/<transition>`): the robot as
 * it is after it; 409 for a transition the robot's state refuses (src/domain/robot-lifecycle.ts).
 */
const transition = (name: RobotTransition): ManagementRoute =>
  route(MANAGEMENT[name], async ({ named: robot, caller }, deps) => {
    const moved = await deps.lifecycle[name](robot);
    // Listed in its new state: the robots page's filter by state (src/workspaces/robot-directory.ts).
    if (moved.state !== robot.state) await deps.directory.list(moved);
    return robotShown(deps, caller, moved);
  });

/** Live URLs read, by reader and robot, recorded in the audit log at most once per URL_READ_RECORDED_EVERY_MS. */
const urlReads = new Throttle('webhook URL reads recorded', 1, THROTTLE_ENTRIES, URL_READ_RECORDED_EVERY_MS);

/**
 * One robot with its card, as its caller may see it: the live URL and the handshake secrets'
 * origins for editors and up (a viewer reads no credential: the masked URL), each reader's read
 * of a live URL recorded in the audit log (`robot.read-url`), so it says whose URLs to rotate when a
 * person leaves (docs/workspaces.md).
 */
async function robotShown(deps: ManagementDeps, caller: Caller, robot: RobotDoc, history?: RobotHistory) {
  const credentials = allows(caller.role, 'editor');
  const view = robotView(robot, deps.config, history, { card: true, credentials });
  const reader = caller.actor.kind === 'key' ? caller.actor.keyId : caller.actor.kind;
  if (credentials && robot.trigger.identifier && urlReads.take(`${reader}:${robot._id}`))
    await deps.audit.record(caller, 'robot.read-url', `robot:${robot._id}`);
  return view;
}

export const ROBOT_ROUTES: ManagementRoute[] = [
  route(MANAGEMENT.createRobot, async ({ body, caller }, deps) => {
    const robot = await createRobot(deps.models, caller.workspaceId, body, deps.config.workspaceSizes.maxRobots);
    await deps.directory.list(robot);
    return robotShown(deps, caller, robot);
  }),
  route(
    MANAGEMENT.listRobots,
    /**
     * A page of the workspace's directory (src/workspaces/robot-directory.ts), then each shown
     * robot and its tally by `_id`; without their cards: a webhook URL is read one robot at a time.
     * A robot whose state is not the one listed (two transitions crossed) is shown as it is, listed
     * again, and left out of a page of another state.
     */
    async ({ query, caller }, { models, config, directory }) => {
      if (query.cursor !== undefined && query.before !== undefined)
        throw invalidField('before', 'give either cursor or before, not both');
      const page = await pageOf(directory.page(caller.workspaceId, query));
      const read = await Promise.all(page.ids.map((id) => byId<RobotDoc>(models.Robot, id)));
      const behind = read.filter((r, i): r is RobotDoc => r !== null && r.state !== page.states[i]);
      await Promise.all(behind.map((r) => directory.list(r)));
      const robots = read.filter((r): r is RobotDoc => r !== null && (!query.state || r.state === query.state));
      const histories = await Promise.all(robots.map((r) => robotHistory(models, r._id)));
      return {
        robots: robots.map((r, i) => robotView(r, config, histories[i], { card: false, credentials: false })),
        nextCursor: page.nextCursor,
        prevCursor: page.prevCursor,
        total: page.total,
        offset: page.offset,
      };
    },
  ),
  route(MANAGEMENT.getRobot, async ({ named: robot, caller }, deps) =>
    robotShown(deps, caller, robot, await robotHistory(deps.models, robot._id)),
  ),
  route(MANAGEMENT.robotFields, ({ named: robot }, { models }) => robotFields(models, robot._id)),
  route(MANAGEMENT.sendTestDelivery, async ({ named: robot, body }, deps) => ({
    deliveryId: await asked(sendTestDelivery(deps, robot, body)),
  })),
  route(
    MANAGEMENT.editRobot,
    /** New steps apply to deliveries accepted from then on (src/robots/steps-versions.ts). */
    async ({ named, body, caller }, deps) => {
      await editRobot(deps.models, named, body, (id) => deps.triggers.forget(id));
      // Read again as edited (its `_id` is the caller's workspace's: it was found there).
      const robot = await found('robot', byId<RobotDoc>(deps.models.Robot, named._id));
      if (body.name) await deps.directory.list(robot);
      return robotShown(deps, caller, robot);
    },
  ),
  transition('start'),
  transition('stop'),
  transition('pause'),
  transition('resume'),
  route(MANAGEMENT.rotateToken, async ({ named: robot, body, caller }, deps) =>
    robotShown(deps, caller, await deps.lifecycle.rotate(robot, body.graceHours)),
  ),
  route(
    MANAGEMENT.confirmHandshakeSecret,
    /** A pending secret made the URL's (src/robots/handshake-secrets.ts); the receivers read the trigger again. */
    async ({ named, body, caller }, deps) => {
      const { config, models } = deps;
      const keys = { models, secretsKey: config.secretsKey, secretsKeys: config.secretsKeys };
      const { robot, secret } = await confirmHandshakeSecret(keys, named, body.fingerprint);
      await deps.triggers.forget(robot.trigger.identifier);
      const label = robot.trigger.appId ? await pasteBackLabel(deps, robot.trigger.appId) : undefined;
      return {
        robot: await robotShown(deps, caller, robot),
        pasteBack: label ? { label, value: secret } : null,
      };
    },
  ),
];

/** Under which label the person pastes a handshake's secret back into its sender (Notion's token), if it must. */
async function pasteBackLabel({ models }: ManagementDeps, appId: string): Promise<string | undefined> {
  const sender = (await byId<AppDoc>(models.App, appId))?.sender;
  return sender ? SENDERS[sender].secretFromHandshake?.pasteBack : undefined;
}
