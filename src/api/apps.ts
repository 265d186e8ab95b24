/**
 * Custom apps (body format, optional signature verification, what their deliveries are told apart
 * by) and payment provider connections.
 * Secrets are sealed with SECRETS_KEY as they arrive and never returned.
 */
import { decryptSecret, encryptSecret, newId } from '../domain/secrets';
import { dedupProblem, type DedupChoice } from '../domain/dedup';
import type { BodyFormat } from '../domain/types';
import { invalidField } from '../core/http-errors';
import type { AppDoc } from '../storage/documents';
import type { VerificationBody } from '../contract/requests';
import { found } from './lookups';
import { route, type ManagementDeps, type ManagementRoute } from './deps';
import { MANAGEMENT } from '../contract/management';
import { appView, connectionView } from './views';

/** The stored form of an app's verification: the whole settings, with the secret, sealed. */
const sealed = ({ config }: ManagementDeps, v: VerificationBody | null): Pick<AppDoc, 'verificationSealed'> => ({
  verificationSealed: v ? encryptSecret(config.secretsKey, JSON.stringify(v)) : null,
});

/** The scheme a stored app's senders sign with, or null. */
function schemeOf({ config }: ManagementDeps, app: Pick<AppDoc, 'verificationSealed'>): string | null {
  if (!app.verificationSealed) return null;
  return (JSON.parse(decryptSecret(config.secretsKeys, app.verificationSealed)) as { scheme: string }).scheme;
}

/** Refuses a dedup choice that does not suit the app as it will be (src/domain/dedup.ts, `dedupProblem`). */
function checkDedup(dedup: DedupChoice | null | undefined, app: { signedWith: string | null; bodyFormat: BodyFormat }) {
  const problem = dedup ? dedupProblem(dedup, app) : null;
  if (problem) throw invalidField(problem.field, problem.problem);
}

export const APP_ROUTES: ManagementRoute[] = [
  route(MANAGEMENT.createApp, async ({ body: { verification, ...body } }, deps) => {
    checkDedup(body.dedup, { signedWith: verification?.scheme ?? null, bodyFormat: body.bodyFormat });
    const app = await deps.models.App.create({
      _id: newId(),
      ...body,
      ...sealed(deps, verification ?? null),
      createdAt: new Date(),
    });
    return appView(app.toObject(), deps.config.secretsKeys);
  }),
  route(
    MANAGEMENT.listApps,
    /** Apps are few: one read of the collection. */
    async (_, { models, config }) => {
      const apps = await models.App.find().lean();
      apps.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
      return { apps: apps.map((a) => appView(a, config.secretsKeys)) };
    },
  ),
  route(MANAGEMENT.getApp, async ({ params }, { models, config }) => {
    return appView(await found('app', models.App.findById(params.id).lean()), config.secretsKeys);
  }),
  route(
    MANAGEMENT.editApp,
    /** Other receiver processes see the edit within TRIGGER_CACHE_TTL_MS. */
    async ({ params, body: { verification, ...body } }, deps) => {
      const { App } = deps.models;
      const app = await found('app', App.findById(params.id).lean());
      checkDedup(body.dedup === undefined ? app.dedup : body.dedup, {
        signedWith: verification === undefined ? schemeOf(deps, app) : (verification?.scheme ?? null),
        bodyFormat: body.bodyFormat ?? app.bodyFormat,
      });
      const changes = { ...body, ...(verification === undefined ? {} : sealed(deps, verification)) };
      const updated = await found('app', App.findByIdAndUpdate(app._id, { $set: changes }, { new: true }).lean());
      await deps.triggers.forgetAll();
      return appView(updated, deps.config.secretsKeys);
    },
  ),
  route(MANAGEMENT.createConnection, async ({ body: { signingSecret, ...body } }, { models, config }) => {
    const connection = await models.Connection.create({
      _id: newId(),
      ...body,
      signingSecretSealed: signingSecret ? encryptSecret(config.secretsKey, signingSecret) : null,
      createdAt: new Date(),
    });
    return connectionView(connection.toObject());
  }),
  route(MANAGEMENT.listConnections, async (_, { models }) => {
    const connections = await models.Connection.find().lean();
    connections.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    return { connections: connections.map(connectionView) };
  }),
  route(MANAGEMENT.getConnection, async ({ params }, { models }) => {
    return connectionView(await found('connection', models.Connection.findById(params.id).lean()));
  }),
];
