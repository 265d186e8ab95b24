/** The one error path of the HTTP service, and helpers for JSON request bodies. */
import getRawBody from 'raw-body';
import type { Context, Middleware } from 'koa';
import { ZodError, type ZodTypeAny, type output } from 'zod';
import type { Logger } from './log';
import { API_BODY_BYTES } from './domain/limits';

interface HttpErrorLike {
  status?: number;
  expose?: boolean;
  message: string;
  headers?: Record<string, string>;
  field?: string;
}

/** Idle keep-alive connections are kept longer than the usual 60 s of load balancers and senders. */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Retry-After for 503 answers: long enough for a restart, short enough for senders' retries. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * Errors become JSON `{ "error", "field"? }` on the management API. Webhook routes set
 * `ctx.state.bareErrors`: senders get the status code with an empty body, and anything that is
 * not an HTTP error (database or engine unreachable) is a 503 with Retry-After, never a 200.
 */
export function errorHandler(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && !ctx.state.bareErrors) {
        ctx.body = { error: 'not found' };
        ctx.status = 404;
      }
    } catch (raw) {
      ctx.state.error = raw; // for the webhook metrics, outside this handler
      const err = raw instanceof ZodError ? fromZod(raw) : (raw as HttpErrorLike);
      let status = err.status && err.status >= 400 && err.status < 600 ? err.status : 500;
      const where = {
        method: ctx.method,
        route: routeOf(ctx),
        ...(ctx.state.ids as Record<string, string> | undefined),
      };
      if ((raw as { expected?: boolean })?.expected) log.info(`refused: ${err.message}`, { ...where, status });
      else if (status >= 500) log.error('request failed', { ...where, error: String((raw as Error)?.stack ?? raw) });
      if (ctx.state.bareErrors && status === 500) status = 503;
      ctx.status = status;
      for (const [k, v] of Object.entries(err.headers ?? {})) ctx.set(k, v);
      if (status === 503) ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
      if (ctx.state.bareErrors) {
        ctx.body = null;
        ctx.status = status; // assigning null resets the status to 204
        return;
      }
      const message = status < 500 || err.expose ? err.message : 'internal error';
      ctx.body = err.field ? { error: message, field: err.field } : { error: message };
    }
  };
}

/**
 * The route a request matched, never its path: a webhook path ends in the URL's token, the only
 * credential of a trigger, and no log line may hold it. An unmatched request is logged as such.
 */
export function routeOf(ctx: Context): string {
  const route = (ctx as Context & { _matchedRoute?: string })._matchedRoute;
  return typeof route === 'string' ? route : '(no route)';
}

function fromZod(err: ZodError): HttpErrorLike {
  const issue = err.issues[0];
  // An unknown field is named itself, not by the object that holds it.
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : issue.path;
  const field = path.join('.');
  return { status: 400, message: `${field || 'body'}: ${issue.message}`, field: field || 'body' };
}

/** Reads and validates a JSON request body (1 MiB at most). */
export async function readJson<S extends ZodTypeAny>(ctx: Context, schema: S): Promise<output<S>> {
  const raw = await getRawBody(ctx.req, { limit: API_BODY_BYTES, encoding: 'utf8' });
  let value: unknown;
  try {
    value = raw.length === 0 ? {} : JSON.parse(raw);
  } catch {
    ctx.throw(400, 'body: invalid JSON', { field: 'body' });
  }
  return schema.parse(value) as output<S>;
}
