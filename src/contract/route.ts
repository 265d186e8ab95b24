/**
 * A route of the service's port: a declared operation (./operation.ts; the management API's are
 * named in ./management.ts) with its handler. `routesFor` gives one its handler, typed from the
 * declaration: the handler is given the path parameters, body and query read and checked, and
 * must return the declared 2xx answer, or it does not compile. `mountRoutes` puts a list of them
 * on a router (every route it mounts needs a credential: the open ones, the webhook URL and the
 * Web UI's codec key, have their own routers); src/runtime/operations.ts gathers every route of
 * the port, and ./openapi.ts renders that list as the OpenAPI document (test/openapi.test.ts
 * checks the document against the routes really served).
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { readJson } from '../core/http-errors';
import type { Caller } from '../domain/workspaces';
import type { AnswerIn, FileAnswer, Operation, RouteRequest, SuccessAnswer } from './operation';
import { BODIES, QUERIES } from './requests';

/** What mounting a route needs of the process: who its caller is, and the audit log of writes. */
export interface RouteGuard {
  /** The caller of a route that needs a credential; throws its refusal (401, 403, 404). */
  identify(ctx: Context, op: Operation): Promise<Caller>;
  /** Records a write that succeeded (src/workspaces/audit.ts), in `workspaceId`. */
  recordWrite(caller: Caller, action: string, resource: string, workspaceId: string): Promise<void>;
}

/**
 * What a write is recorded on: `<kind>:<id>`, the kind the action's (`robot.pause`: `robot`), the id
 * the answer's (what it made) or else the path's. A workspace's own writes (its making) are recorded
 * in it; every other in the caller's.
 */
function audited(action: string, params: Record<string, string>, answer: unknown, caller: Caller) {
  const kind = action.split('.')[0];
  const made = (answer as { id?: unknown } | undefined)?.id;
  const id = typeof made === 'string' ? made : (params.id ?? '');
  return { resource: `${kind}:${id}`, workspaceId: kind === 'workspace' ? id : caller.workspaceId };
}

/**
 * A route with its handler, which returns the JSON answer; its status is the operation's one 2xx
 * answer. Refusals are thrown (src/core/http-errors.ts), never returned. `D` is what the process
 * gives every handler (src/api/deps.ts for the management API).
 */
export interface ApiRoute<D> extends Operation {
  handle(request: RouteRequest<Operation>, deps: D): Promise<unknown>;
}

/** A handler of the operation `O`: given its request, it returns the operation's declared 2xx answer. */
type Handler<O extends Operation, D> = (request: RouteRequest<O>, deps: D) => Promise<AnswerIn<SuccessAnswer<O>>>;

/**
 * `route(op, handler)` for handlers given `D`: gives a declared operation its handler, checked
 * against the operation's path parameters, body, query and answer.
 */
export function routesFor<D>() {
  // A list holds routes of different request types; each handler was checked against its own here.
  return <const O extends Operation>(op: O, handle: Handler<O, D>): ApiRoute<D> => ({ ...op, handle });
}

/** The status a route answers with when its handler returns: its one 2xx answer. */
export function successStatus(op: Pick<Operation, 'answers' | 'method' | 'path'>): number {
  const ok = Object.keys(op.answers)
    .map(Number)
    .filter((s) => s >= 200 && s < 300);
  if (ok.length !== 1) throw new Error(`${op.method} ${op.path} must declare exactly one 2xx answer`);
  return ok[0];
}

/**
 * Bytes a sender sent (a form's file), as an attachment of no type a browser renders: whatever it
 * claims to be, it is never shown as a page of this origin.
 */
function sendFile(ctx: Context, { file }: FileAnswer): void {
  const name = (file.filename ?? 'file').replace(/[^\w.-]/g, '_');
  ctx.set('Content-Disposition', `attachment; filename="${name}"`);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = 'application/octet-stream';
  ctx.body = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
}

/**
 * Puts the routes on the router: the caller known and allowed, the body and query read, the
 * answer set, and a write recorded in the audit log before it is answered.
 */
export function mountRoutes<D extends RouteGuard>(router: Router, routes: readonly ApiRoute<D>[], deps: D): void {
  for (const r of routes) {
    const status = successStatus(r);
    router[r.method](r.path, async (ctx: Context) => {
      const caller = await deps.identify(ctx, r);
      const body: unknown = r.body && r.body !== 'raw' ? await readJson(ctx, BODIES[r.body]) : undefined;
      const query: unknown = r.query ? QUERIES[r.query].parse(ctx.query) : undefined;
      const params = ctx.params as Record<string, string>;
      const request = { params, body, query, caller } as RouteRequest<Operation>;
      const answer = await r.handle(request, deps);
      if (r.audit) {
        const { resource, workspaceId } = audited(r.audit, params, answer, caller);
        await deps.recordWrite(caller, r.audit, resource, workspaceId);
      }
      ctx.status = status;
      if (r.answers[status] === 'file') return sendFile(ctx, answer as FileAnswer);
      ctx.body = answer;
    });
  }
}
