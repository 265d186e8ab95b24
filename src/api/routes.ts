/**
 * The management API: JSON under /api, every route behind `Authorization: Bearer <admin token>`
 * (its OpenAPI document too), wrong tokens throttled per client address (src/http.ts). Its routes
 * are declared as data (./route.ts), one list per resource: apps and connections (./apps), robots
 * and their trigger (./robots), the history and replay (./history), and the API's own below.
 */
import Router from '@koa/router';
import { webUiCodecEndpoint } from '../codec-routes';
import { StepsVersions } from '../robots/steps-versions';
import { APP_ROUTES } from './apps';
import type { ManagementDeps, ManagementInput } from './deps';
import { HISTORY_ROUTES } from './history';
import { mountRoutes, route, type ApiRoute } from './route';
import { ROBOT_ROUTES, robotLifecycle } from './robots';

/** The API's own routes: its document, and where the Temporal Web UI's codec endpoint is. */
export const META_ROUTES: ApiRoute[] = [
  route({
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This document',
    admin: true,
    answers: { 200: 'document' },
    handle: (_, { document }) => Promise.resolve(document),
  }),
  route({
    method: 'get',
    path: '/api/codec',
    summary:
      'The codec endpoint to give the Temporal Web UI in a browser (its Codec Server setting): bodies in it are encrypted',
    admin: true,
    answers: { 200: 'Codec' },
    handle: (_, { config }) => Promise.resolve({ webUiEndpoint: webUiCodecEndpoint(config) }),
  }),
];

/** Every management route, in the order they are matched. */
export const MANAGEMENT_ROUTES: readonly ApiRoute[] = [
  ...META_ROUTES,
  ...APP_ROUTES,
  ...ROBOT_ROUTES,
  ...HISTORY_ROUTES,
];

export function managementRouter(input: ManagementInput): Router {
  const deps: ManagementDeps = {
    ...input,
    lifecycle: robotLifecycle(input),
    versions: new StepsVersions(input.models),
  };
  const router = new Router();
  mountRoutes(router, MANAGEMENT_ROUTES, deps);
  return router;
}
