/**
 * The management API: JSON under /api, every route behind `Authorization: Bearer <admin token or
 * key>` (its OpenAPI document too; src/workspaces/callers.ts), acting in one workspace, wrong
 * credentials throttled per client address (src/core/http-errors.ts), writes in the audit log. Its routes
 * are declared as data (src/contract/management.ts), one list per resource: apps and connections (./apps), robots
 * and their trigger (./robots), the history and replay (./history), workspaces, keys and the audit
 * log (./workspaces), and the API's own below.
 */
import Router from '@koa/router';
import { webUiCodecEndpoint } from '../codec/routes';
import { StepsVersions } from '../robots/steps-versions';
import { APP_ROUTES } from './apps';
import { route, type ManagementDeps, type ManagementInput, type ManagementRoute } from './deps';
import { HISTORY_ROUTES } from './history';
import { mountRoutes } from '../contract/route';
import { MANAGEMENT } from '../contract/management';
import { ROBOT_ROUTES } from './robots';
import type { RobotLifecycle } from '../robots/lifecycle';
import { auditActor } from '../domain/workspaces';
import { AuditLog } from '../workspaces/audit';
import { identifyCaller } from '../workspaces/callers';
import { Keys } from '../workspaces/keys';
import { RobotDirectory } from '../workspaces/robot-directory';
import { Workspaces } from '../workspaces/workspaces';
import { WORKSPACE_ROUTES } from './workspaces';

/** The API's own routes: its document, and where the Temporal Web UI's codec endpoint is. */
const META_ROUTES: ManagementRoute[] = [
  route(MANAGEMENT.openApiDocument, (_, { document }) => Promise.resolve(document)),
  route(MANAGEMENT.codecEndpoint, (_, { config }) => Promise.resolve({ webUiEndpoint: webUiCodecEndpoint(config) })),
];

/** Every management route, in the order they are matched. */
export const MANAGEMENT_ROUTES: readonly ManagementRoute[] = [
  ...META_ROUTES,
  ...APP_ROUTES,
  ...ROBOT_ROUTES,
  ...HISTORY_ROUTES,
  ...WORKSPACE_ROUTES,
];

/** The management API's router; `lifecycle` is the robot's, as the process runs it (src/runtime/robot-lifecycle.ts). */
export function managementRouter(input: ManagementInput, lifecycle: RobotLifecycle): Router {
  const { models, config, authFailures, log, metrics } = input;
  const workspaces = new Workspaces(models);
  const keys = new Keys(models);
  const audit = new AuditLog(models, config.auditRetentionMs);
  const deps: ManagementDeps = {
    ...input,
    lifecycle,
    versions: new StepsVersions(models),
    workspaces,
    keys,
    audit,
    directory: new RobotDirectory(models),
    identify: (ctx, op) =>
      identifyCaller(ctx, op, {
        adminToken: config.adminToken,
        authFailures,
        keys,
        workspaces,
        refused: (reason) => metrics?.credentialsRefused.inc({ reason }),
      }),
    recordWrite: ({ caller, action, resource, workspaceId, outcome }) =>
      audit.record(caller, action, resource, workspaceId, outcome),
    settleWrite: (entryId, { outcome, resource }) => audit.settle(entryId, outcome, resource),
    // The log line is the entry's last record: everything the entry would have held.
    unrecorded: ({ caller, action, resource, workspaceId, outcome }, err) => {
      metrics?.auditUnrecorded.inc();
      log.error('an audit entry was not recorded', {
        workspaceId,
        actor: auditActor(caller.actor),
        action,
        outcome,
        resource,
        address: caller.address,
        err: String(err),
      });
    },
  };
  const router = new Router();
  mountRoutes(router, MANAGEMENT_ROUTES, deps);
  return router;
}
