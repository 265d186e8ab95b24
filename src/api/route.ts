/**
 * A route of the service's port, declared once, as data: its method and path, whether it needs the
 * admin token, the zod schemas its body and query take (by their names in the OpenAPI document),
 * what it answers with each status, and its handler. `mountRoutes` puts a list of them on a router;
 * src/api/operations.ts gathers every list, and src/api/openapi.ts renders the same list as the
 * OpenAPI document (test/openapi.test.ts checks the document against the routes really served).
 * Adding a route is one entry in its resource's list (./apps.ts, ./robots.ts, ./history.ts).
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { ZodObject, ZodRawShape, output } from 'zod';
import { readJson, requireAdminToken } from '../http';
import type { ANSWERS } from './answers';
import type { ManagementDeps } from './deps';
import { BODIES } from './schemas';

export type AnswerName = keyof typeof ANSWERS;
export type BodyName = keyof typeof BODIES;

/** A route as the OpenAPI document sees it (the webhook and codec routes are declared as these). */
export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch';
  /** Koa's form: `/api/robots/:id`. */
  path: string;
  summary: string;
  /** Needs `Authorization: Bearer <admin token>` (everything but the webhook URL and the Web UI's codec key). */
  admin: boolean;
  body?: BodyName | 'raw';
  query?: ZodObject<ZodRawShape>;
  /** Status → the answer's schema, `empty`, or `document` (the OpenAPI document). */
  answers: Record<number, AnswerName | 'empty' | 'document'>;
}

/** What a management route's handler is given: the request's path parameters, body and query, read and checked. */
export interface RouteRequest<B, Q> {
  params: Record<string, string>;
  body: B;
  query: Q;
}

type BodyOf<N> = N extends BodyName ? output<(typeof BODIES)[N]> : undefined;
type QueryOf<S> = S extends ZodObject<ZodRawShape> ? output<S> : undefined;

/**
 * A management API route: an operation with its handler, which returns the JSON answer; its status
 * is the operation's one 2xx answer. Refusals are thrown (src/http.ts), never returned.
 */
export interface ApiRoute<
  N extends BodyName | undefined = BodyName | undefined,
  S = ZodObject<ZodRawShape> | undefined,
> extends Omit<Operation, 'body' | 'query'> {
  body?: N;
  query?: S;
  handle(request: RouteRequest<BodyOf<N>, QueryOf<S>>, deps: ManagementDeps): Promise<unknown>;
}

/** Declares a route (types its handler's body and query from the schemas it names). */
export function route<N extends BodyName | undefined = undefined, S = undefined>(r: ApiRoute<N, S>): ApiRoute {
  // A list holds routes of different body and query types; each handler was checked against its own here.
  return r as unknown as ApiRoute;
}

/** The status a route answers with when its handler returns: its one 2xx answer. */
export function successStatus(op: Pick<Operation, 'answers' | 'method' | 'path'>): number {
  const ok = Object.keys(op.answers)
    .map(Number)
    .filter((s) => s >= 200 && s < 300);
  if (ok.length !== 1) throw new Error(`${op.method} ${op.path} must declare exactly one 2xx answer`);
  return ok[0];
}

/** Puts the routes on the router: the admin token checked, the body and query read, the answer set. */
export function mountRoutes(router: Router, routes: readonly ApiRoute[], deps: ManagementDeps): void {
  for (const r of routes) {
    const status = successStatus(r);
    router[r.method](r.path, async (ctx: Context) => {
      if (r.admin) requireAdminToken(ctx, deps.config.adminToken, deps.authFailures);
      const body = r.body ? await readJson(ctx, BODIES[r.body]) : undefined;
      const query = r.query ? r.query.parse(ctx.query) : undefined;
      const answer = await r.handle({ params: ctx.params as Record<string, string>, body, query }, deps);
      ctx.status = status;
      ctx.body = answer;
    });
  }
}
