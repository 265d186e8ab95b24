/**
 * The management API: JSON under /api, every route behind `Authorization: Bearer <admin token>`.
 * Its routes, one concept per file: apps and connections (./apps), robots and their trigger
 * (./robots), the history and replay (./history).
 */
import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { secretsEqual } from '../domain/secrets';
import { unauthorized } from '../http';
import { appRoutes } from './apps';
import type { ManagementDeps } from './deps';
import { historyRoutes } from './history';
import { robotRoutes } from './robots';

export function managementRouter(deps: ManagementDeps): Router {
  const router = new Router({ prefix: '/api' });
  router.use(async (ctx: Context, next: Next) => {
    const header = ctx.get('authorization');
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!token || !secretsEqual(token, deps.config.adminToken)) throw unauthorized('missing or wrong admin token');
    await next();
  });
  appRoutes(router, deps);
  robotRoutes(router, deps);
  historyRoutes(router, deps);
  return router;
}
