/** The HTTP service: health, the webhook receiver and the management API, behind one error path. */
import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import Koa from 'koa';
import type { Connection } from 'mongoose';
import { managementRouter } from './api/routes';
import type { Config } from './config';
import { errorHandler } from './http';
import type { Logger } from './log';
import type { Models } from './models';
import { TriggerCache } from './receiver/trigger-cache';
import { DeliveryRecorder } from './history/slots';
import { webhookRouter } from './receiver/webhooks';
import { temporalAnswers } from './temporal';

export interface AppDeps {
  config: Config;
  db: Connection;
  models: Models;
  temporal: Client;
  log: Logger;
}

async function mongodbAnswers(db: Connection): Promise<boolean> {
  try {
    await db.db!.admin().ping({ timeoutMS: 2000 });
    return true;
  } catch {
    return false;
  }
}

export function createApp(deps: AppDeps): Koa {
  const triggers = new TriggerCache(deps.models, deps.config.secretsKey, deps.config.triggerCacheTtlMs);
  const app = new Koa();
  app.silent = true; // errors are logged by the error handler
  app.use(errorHandler(deps.log));

  const health = new Router();
  health.get('/healthz', async (ctx) => {
    const [temporal, mongodb] = await Promise.all([temporalAnswers(deps.temporal), mongodbAnswers(deps.db)]);
    ctx.status = temporal && mongodb ? 200 : 503;
    ctx.body = { temporal: temporal ? 'ok' : 'unreachable', mongodb: mongodb ? 'ok' : 'unreachable' };
  });
  app.use(health.routes());

  const webhooks = webhookRouter({ ...deps, triggers, deliveries: new DeliveryRecorder(deps.models) });
  app.use(webhooks.routes());
  app.use(managementRouter({ ...deps, triggers }).routes());
  return app;
}
