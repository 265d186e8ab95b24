/**
 * The management API: JSON under /api, every route behind `Authorization: Bearer <admin token or
 * key>` (its OpenAPI document too; src/workspaces/callers.ts), acting in one workspace, wrong
 * credentials throttled per client address (src/core/http-errors.ts), writes in the audit log. Its routes
 * are declared as data (src/contract/management.ts), one list per resource: apps and connections (./apps), robots
 * and their trigger (./robots), the history and replay (./history), workspaces, keys and the audit
 * log (./workspaces), issues (./issues), notification channels (./notification-channels), and the API's own
 * below.
 */
import Router from '@koa/router';
import { webUiCodecEndpoint } from '../codec/routes';
import { APP_ROUTES } from './apps';
import { route, type ManagementDeps, type ManagementRoute } from './deps';
import { HISTORY_ROUTES } from './history';
import { ISSUE_ROUTES } from './issues';
import { NOTIFICATION_CHANNEL_ROUTES } from './notification-channels';
import { mountRoutes } from '../contract/route';
import { MANAGEMENT } from '../contract/management';
import { ROBOT_ROUTES } from './robots';
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
  ...ISSUE_ROUTES,
  ...NOTIFICATION_CHANNEL_ROUTES,
];

/** The management API's router, given its parts as the process made them (src/runtime/management.ts). */
export function managementRouter(deps: ManagementDeps): Router {
  const router = new Router();
  mountRoutes(router, MANAGEMENT_ROUTES, deps);
  return router;
}
