/**
 * The HTTP service: health, metrics, the OpenAPI document, the webhook receiver, the management
 * API and the dashboard's files, behind one error path.
 */
import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import Koa from 'koa';
import type { Connection } from 'mongoose';
import { openApiDocument } from './api/openapi';
import { managementRouter } from './api/routes';
import type { Config } from './config';
import { errorHandler } from './http';
import type { Logger } from './log';
import { receiverMetrics, type ReceiverMetrics } from './metrics';
import type { Models } from './storage/models';
import { DeliveryRecorder } from './history/slots';
import { TriggerCache } from './receiver/trigger-cache';
import { countWebhookAnswers } from './receiver/webhook-metrics';
import { serveDashboard } from './dashboard';
import { webhookRouter } from './receiver/webhooks';
import { temporalAnswers } from './temporal';

export interface AppDeps {
  config: Config;
  db: Connection;
  models: Models;
  temporal: Client;
  log: Logger;
  /** The receiver's metrics (GET /metrics); a fresh set when not given. */
  metrics?: ReceiverMetrics;
}

async function mongodbAnswers(db: Connection): Promise<boolean> {
  try {
    await db.db!.admin().ping({ timeoutMS: 2000 });
    return true;
  } catch {
    return false;
  }
}

/** Routes that need no admin token: health, metrics and the OpenAPI document. */
function publicRouter(deps: AppDeps, metrics: ReceiverMetrics): Router {
  const router = new Router();
  router.get('/healthz', async (ctx) => {
    const [temporal, mongodb] = await Promise.all([temporalAnswers(deps.temporal), mongodbAnswers(deps.db)]);
    ctx.status = temporal && mongodb ? 200 : 503;
    ctx.body = { temporal: temporal ? 'ok' : 'unreachable', mongodb: mongodb ? 'ok' : 'unreachable' };
  });
  // Prometheus scrapes without credentials: no label holds an id or anything a sender chose.
  router.get('/metrics', async (ctx) => {
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  });
  const document = openApiDocument(deps.config.baseUrl);
  router.get('/api/openapi.json', (ctx) => {
    ctx.body = document;
  });
  return router;
}

/** Every router of the service, in the order requests meet them (test/openapi.test.ts lists their routes). */
export function routers(deps: AppDeps, metrics: ReceiverMetrics = receiverMetrics()): Router[] {
  const triggers = new TriggerCache(deps.models, deps.config.secretsKey, deps.config.triggerCacheTtlMs);
  return [
    publicRouter(deps, metrics),
    webhookRouter({ ...deps, triggers, deliveries: new DeliveryRecorder(deps.models) }),
    managementRouter({ ...deps, triggers }),
  ];
}

export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  app.silent = true; // errors are logged by the error handler
  const metrics = deps.metrics ?? receiverMetrics();
  app.use(countWebhookAnswers(metrics)); // outside the error handler: it sees what the sender got
  app.use(errorHandler(deps.log));
  for (const router of routers(deps, metrics)) app.use(router.routes());
  app.use(serveDashboard());
  return app;
}
