/**
 * The management API: JSON under /api, every route behind `Authorization: Bearer <admin token>`
 * (its OpenAPI document too), wrong tokens throttled per client address (src/http.ts).
 * Its routes, one concept per file: apps and connections (./apps), robots and their trigger
 * (./robots), the history and replay (./history).
 */
import Router from '@koa/router';
import { webUiCodecEndpoint } from '../codec-routes';
import { requireAdminToken } from '../http';
import { appRoutes } from './apps';
import type { ManagementDeps } from './deps';
import { historyRoutes } from './history';
import { robotRoutes } from './robots';

export function managementRouter(deps: ManagementDeps): Router {
  const router = new Router({ prefix: '/api' });
  router.use(async (ctx, next) => {
    requireAdminToken(ctx, deps.config.adminToken, deps.authFailures);
    await next();
  });
  router.get('/openapi.json', (ctx) => {
    ctx.body = deps.document;
  });
  router.get('/codec', (ctx) => {
    ctx.body = { webUiEndpoint: webUiCodecEndpoint(deps.config.baseUrl, deps.config.adminToken) };
  });
  appRoutes(router, deps);
  robotRoutes(router, deps);
  historyRoutes(router, deps);
  return router;
}
