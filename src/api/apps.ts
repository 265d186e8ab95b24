/**
 * Custom apps (body format, optional signature verification) and payment provider connections.
 * Secrets are sealed with SECRETS_KEY as they arrive and never returned.
 */
import type Router from '@koa/router';
import { encryptSecret, newId } from '../domain/secrets';
import { readJson } from '../http';
import type { AppDoc } from '../storage/documents';
import { createAppBody, createConnectionBody, updateAppBody, type VerificationBody } from './schemas';
import { found } from './lookups';
import type { ManagementDeps } from './deps';
import { appView, connectionView } from './views';

export function appRoutes(router: Router, { config, models, triggers }: ManagementDeps): void {
  const { App, Connection } = models;

  /** The stored form of an app's verification: the whole settings, with the secret, sealed. */
  const sealed = (v: VerificationBody | null): Pick<AppDoc, 'verificationSealed'> => ({
    verificationSealed: v ? encryptSecret(config.secretsKey, JSON.stringify(v)) : null,
  });

  router.post('/apps', async (ctx) => {
    const { verification, ...body } = await readJson(ctx, createAppBody);
    const app = await App.create({ _id: newId(), ...body, ...sealed(verification ?? null), createdAt: new Date() });
    ctx.status = 201;
    ctx.body = appView(app.toObject(), config.secretsKeys);
  });

  /** Every app, newest first (apps are few: one read of the collection). */
  router.get('/apps', async (ctx) => {
    const apps = await App.find().lean();
    apps.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    ctx.body = { apps: apps.map((a) => appView(a, config.secretsKeys)) };
  });

  router.get('/apps/:id', async (ctx) => {
    ctx.body = appView(await found('app', App.findById(ctx.params.id).lean()), config.secretsKeys);
  });

  /** Edits take effect for deliveries accepted from then on (other receiver processes: within TRIGGER_CACHE_TTL_MS). */
  router.patch('/apps/:id', async (ctx) => {
    const { verification, ...body } = await readJson(ctx, updateAppBody);
    const app = await found('app', App.findById(ctx.params.id, { _id: 1 }).lean());
    const changes = { ...body, ...(verification === undefined ? {} : sealed(verification)) };
    const updated = await found('app', App.findByIdAndUpdate(app._id, { $set: changes }, { new: true }).lean());
    await triggers.forgetAll();
    ctx.body = appView(updated, config.secretsKeys);
  });

  router.post('/connections', async (ctx) => {
    const { signingSecret, ...body } = await readJson(ctx, createConnectionBody);
    const connection = await Connection.create({
      _id: newId(),
      ...body,
      signingSecretSealed: signingSecret ? encryptSecret(config.secretsKey, signingSecret) : null,
      createdAt: new Date(),
    });
    ctx.status = 201;
    ctx.body = connectionView(connection.toObject());
  });

  /** Every payment provider connection, newest first. */
  router.get('/connections', async (ctx) => {
    const connections = await Connection.find().lean();
    connections.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    ctx.body = { connections: connections.map(connectionView) };
  });

  router.get('/connections/:id', async (ctx) => {
    ctx.body = connectionView(await found('connection', Connection.findById(ctx.params.id).lean()));
  });
}
