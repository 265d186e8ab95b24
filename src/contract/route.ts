/**
 * A route of the service's port: a declared operation (./operation.ts; the management API's are
 * named in ./management.ts) with its handler. `routesFor` gives one its handler, typed from the
 * declaration: the handler is given the path parameters, body and query read and checked (and
 * what the path names, found in the caller's workspace, when the operation declares `names`), and
 * must return the declared 2xx answer, or it does not compile. `mountRoutes` puts a list of them
 * on a router (every route it mounts needs a credential: the open ones, the webhook URL and the
 * Web UI's codec key, have their own routers); src/runtime/operations.ts gathers every route of
 * the port, and ./openapi.ts renders that list as the OpenAPI document (test/openapi.test.ts
 * checks the document against the routes really served).
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { forbidden, notFound, readJson } from '../core/http-errors';
import { retried } from '../core/retry';
import { AUDIT_RECORD_RETRY } from '../domain/limits';
import { allows, type AuditOutcome, type Caller } from '../domain/workspaces';
import type { AnswerIn, FileAnswer, Named, Operation, RouteRequest, SuccessAnswer } from './operation';
import { BODIES, QUERIES } from './requests';

/** A write as the audit log records it (src/workspaces/audit.ts): done, or refused (403). */
export interface AuditedWrite {
  caller: Caller;
  action: string;
  resource: string;
  workspaceId: string;
  outcome: AuditOutcome;
}

/** What mounting a route needs of the process: who its caller is, and the audit log of writes. */
export interface RouteGuard {
  /**
   * The caller of a route that needs a credential, whatever its role; throws its refusal (401: no
   * known caller; 404: a workspace it may not name). Whether its role allows the route is the mount's.
   */
  identify(ctx: Context, op: Operation): Promise<Caller>;
  /**
   * What a path's `:id` names (its operation's `names`), when it is of the caller's workspace; null
   * when it is not or does not exist, which the route answers 404 alike.
   */
  find(what: Named, id: string, caller: Caller): Promise<unknown>;
  /** Records a write (src/workspaces/audit.ts) once; its entry's id; throws when the database did not take it. */
  recordWrite(write: AuditedWrite): Promise<string>;
  /** Sets how a `started` write went and what it made (`write.outcome`, `write.resource`) on its entry. */
  settleWrite(entryId: string, write: AuditedWrite): Promise<void>;
  /** A write whose entry the database never took or never settled, after every try: logged in full and counted. */
  unrecorded(write: AuditedWrite, err: unknown): void;
}

/**
 * What a write is recorded on: `<kind>:<id>`, the kind the action's (`robot.pause`: `robot`), the id
 * the answer's (what it made, once made) or else the path's, unless the path's names the workspace
 * (a key's making: `key:` until made). Recorded in the caller's workspace.
 */
function audited(
  op: Operation,
  params: Record<string, string>,
  answer: unknown,
  caller: Caller,
  outcome: AuditOutcome,
): AuditedWrite | null {
  const action = op.audit;
  if (!action) return null;
  const kind = action.split('.')[0];
  const made = (answer as { id?: unknown } | undefined)?.id;
  const id = typeof made === 'string' ? made : op.workspaceFromPath ? '' : (params.id ?? '');
  return { caller, action, resource: `${kind}:${id}`, workspaceId: caller.workspaceId, outcome };
}

/**
 * An entry's last word, tried again while the database does not take it (AUDIT_RECORD_RETRY): a
 * refusal's entry, or how a `started` write went. What happened has happened by then, so it is
 * answered as it went whatever happens here: an entry never taken or settled is handed to
 * `unrecorded` (logged in full; a `started` one stays in the log as started), never a 500.
 */
async function recordLast(deps: RouteGuard, write: AuditedWrite, entryId?: string): Promise<void> {
  try {
    await retried(
      async () => void (await (entryId ? deps.settleWrite(entryId, write) : deps.recordWrite(write))),
      AUDIT_RECORD_RETRY,
    );
  } catch (err) {
    deps.unrecorded(write, err);
  }
}

/**
 * What the path names, of the caller's workspace; 404 naming what was not found otherwise, as for
 * what does not exist: a key never learns what another workspace has.
 */
async function found(deps: RouteGuard, what: Named, id: string, caller: Caller): Promise<unknown> {
  const doc = await deps.find(what, id, caller);
  if (doc === null || doc === undefined) throw notFound(`${what} not found`);
  return doc;
}

/**
 * A route with its handler, which returns the JSON answer; its status is the operation's one 2xx
 * answer. Refusals are thrown (src/core/http-errors.ts), never returned. `D` is what the process
 * gives every handler (src/api/deps.ts for the management API).
 */
export interface ApiRoute<D> extends Operation {
  handle(request: RouteRequest<Operation> & { named?: unknown }, deps: D): Promise<unknown>;
}

/** What the path of `O` names (`named`), as `N` types each kind it can name; nothing when it names none. */
type NamedBy<O extends Operation, N> = O['names'] extends keyof N ? { named: N[O['names']] } : unknown;

/** A handler of the operation `O`: given its request, it returns the operation's declared 2xx answer. */
type Handler<O extends Operation, D, N> = (
  request: RouteRequest<O> & NamedBy<O, N>,
  deps: D,
) => Promise<AnswerIn<SuccessAnswer<O>>>;

/**
 * `route(op, handler)` for handlers given `D`: gives a declared operation its handler, checked
 * against the operation's path parameters, body, query and answer, and handed what its path names
 * as `N` types it (the documents, by kind).
 */
export function routesFor<D, N extends Partial<Record<Named, unknown>> = Record<never, never>>() {
  // A list holds routes of different request types; each handler was checked against its own here.
  return <const O extends Operation>(op: O, handle: Handler<O, D, N>): ApiRoute<D> => ({ ...op, handle });
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
 * Puts the routes on the router: the caller known and allowed (a write its role is short of is
 * recorded as `refused`, then answered 403), the body and query read, a write recorded in the audit
 * log as `started` before it is made and as `done` or `failed` before it is answered, what the path
 * names found in the caller's workspace (one read, handed to the handler; else 404, a write's entry
 * `failed`, as when a handler refuses), the answer set.
 */
export function mountRoutes<D extends RouteGuard>(router: Router, routes: readonly ApiRoute<D>[], deps: D): void {
  for (const r of routes) {
    const status = successStatus(r);
    router[r.method](r.path, async (ctx: Context) => {
      const params = ctx.params as Record<string, string>;
      const caller = await deps.identify(ctx, r);
      if (!allows(caller.role, r.access)) {
        const refused = audited(r, params, undefined, caller, 'refused');
        if (refused) await recordLast(deps, refused);
        throw forbidden(
          r.access === 'operator' ? 'only the admin token may do this' : `a ${caller.role}'s key may not do this`,
        );
      }
      const body: unknown = r.body && r.body !== 'raw' ? await readJson(ctx, BODIES[r.body]) : undefined;
      const query: unknown = r.query ? QUERIES[r.query].parse(ctx.query) : undefined;
      const request = { params, body, query, caller } as RouteRequest<Operation>;
      // A write's entry is written before the write (`started`): no write is ever made unrecorded.
      // One the database does not take is refused (503) with nothing written.
      const started = audited(r, params, undefined, caller, 'started');
      const entryId = started ? await retried(() => deps.recordWrite(started), AUDIT_RECORD_RETRY) : undefined;
      let answer: unknown;
      try {
        const named = r.names ? await found(deps, r.names, params.id, caller) : undefined;
        answer = await r.handle({ ...request, named }, deps);
      } catch (err) {
        if (started) await recordLast(deps, { ...started, outcome: 'failed' }, entryId);
        throw err;
      }
      const done = audited(r, params, answer, caller, 'done');
      if (done) await recordLast(deps, done, entryId);
      ctx.status = status;
      if (r.answers[status] === 'file') return sendFile(ctx, answer as FileAnswer);
      ctx.body = answer;
    });
  }
}
