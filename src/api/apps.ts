/**
 * Custom apps (body format, optional signature verification, what their deliveries are told apart
 * by) and payment provider connections.
 * Secrets are sealed with SECRETS_KEY as they arrive and never returned.
 */
import { allApps, allConnections, createApp, createConnection, editApp, type AppsDeps } from '../apps/apps';
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
  route(MANAGEMENT.createApp, async ({ body }, deps) =>
    appView(await createApp(appsDeps(deps), body), deps.config.secretsKeys),
  ),
  route(MANAGEMENT.listApps, async (_, deps) => ({
    apps: (await allApps(deps)).map((a) => appView(a, deps.config.secretsKeys)),
  })),
  route(MANAGEMENT.getApp, async ({ params }, { models, config }) =>
    appView(await found('app', models.App.findById(params.id).lean()), config.secretsKeys),
  ),
  route(
    MANAGEMENT.editApp,
    /** Other receiver processes see the edit within TRIGGER_CACHE_TTL_MS. */
    async ({ params, body }, deps) => {
      const app = await found('app', deps.models.App.findById(params.id).lean());
      const updated = await found('app', editApp(appsDeps(deps), app, body));
      await deps.triggers.forgetAll();
      return appView(updated, deps.config.secretsKeys);
    },
  ),
  route(MANAGEMENT.createConnection, async ({ body }, deps) =>
    connectionView(await createConnection(appsDeps(deps), body)),
  ),
  route(MANAGEMENT.listConnections, async (_, deps) => ({
    connections: (await allConnections(deps)).map(connectionView),
  })),
  route(MANAGEMENT.getConnection, async ({ params }, { models }) =>
    connectionView(await found('connection', models.Connection.findById(params.id).lean())),
  ),
];
