/**
 * Custom apps (body format, optional signature verification, what their deliveries are told apart
 * by) and payment provider connections.
 * Secrets are sealed with SECRETS_KEY as they arrive and never returned.
 */
import {
  createApp,
  createConnection,
  editApp,
  editConnection,
  workspaceApps,
  workspaceConnections,
} from '../apps/apps';
import type { AppsDeps } from '../apps/apps';
import { MANAGEMENT } from '../contract/management';
import { found } from './lookups';
import { route, type ManagementDeps, type ManagementRoute } from './deps';
import { appView, connectionView } from './views';

const appsDeps = ({ models, config }: ManagementDeps): AppsDeps => ({
  models,
  secretsKey: config.secretsKey,
  secretsKeys: config.secretsKeys,
});

export const APP_ROUTES: ManagementRoute[] = [
  route(MANAGEMENT.createApp, async ({ body, caller }, deps) =>
    appView(
      await createApp(appsDeps(deps), caller.workspaceId, body, deps.config.workspaceSizes.maxApps),
      deps.config.secretsKeys,
    ),
  ),
  route(MANAGEMENT.listApps, async ({ caller }, deps) => ({
    apps: (await workspaceApps(deps, caller.workspaceId)).map((a) => appView(a, deps.config.secretsKeys)),
  })),
  route(MANAGEMENT.getApp, ({ named: app }, { config }) => Promise.resolve(appView(app, config.secretsKeys))),
  route(
    MANAGEMENT.editApp,
    /** Other receiver processes see the edit within TRIGGER_CACHE_TTL_MS. */
    async ({ named: app, body }, deps) => {
      const updated = await found('app', editApp(appsDeps(deps), app, body));
      await deps.triggers.forgetAll();
      return appView(updated, deps.config.secretsKeys);
    },
  ),
  route(MANAGEMENT.createConnection, async ({ body, caller }, deps) =>
    connectionView(await createConnection(appsDeps(deps), caller.workspaceId, body)),
  ),
  route(
    MANAGEMENT.editConnection,
    /** Other receiver processes see the edit within TRIGGER_CACHE_TTL_MS. */
    async ({ named: connection, body }, deps) => {
      const updated = await found('connection', editConnection(appsDeps(deps), connection, body));
      await deps.triggers.forgetAll();
      return connectionView(updated);
    },
  ),
  route(MANAGEMENT.listConnections, async ({ caller }, deps) => ({
    connections: (await workspaceConnections(deps, caller.workspaceId)).map(connectionView),
  })),
  route(MANAGEMENT.getConnection, ({ named }) => Promise.resolve(connectionView(named))),
];
