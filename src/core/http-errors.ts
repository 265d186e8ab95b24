/**
 * The HTTP service's answers that are not JSON views: the error family (`HttpError` and its
 * makers) with the one place that renders every error (`errorHandler`), the one way to answer
 * with a status and an empty body (`answerEmpty`), and reading JSON request bodies.
 */
import getRawBody from 'raw-body';
import type { Context, Middleware } from 'koa';
import { ZodError, type ZodTypeAny, type output } from 'zod';
import type { Logger } from './log';
import { API_BODY_BYTES } from '../domain/limits';
import { secretsEqual } from '../domain/secrets';
import type { Throttle } from './throttle';

/** What an error adds to its status and message. */
interface HttpErrorDetails {
  /** The request field at fault (management API answers name it). */
  field?: string;
  headers?: Record<string, string>;
  /** An expected refusal (a forged signature): logged as one info line, not as a failure. */
  expected?: boolean;
  /** A 5xx whose message may be shown. */
  expose?: boolean;
  /** On a webhook route: the one line of text its sender is answered with (src/receiver/refusals.ts). */
  answer?: string;
}

/** Every refusal the service answers with; anything else thrown is a 500 (a 503 on webhook routes). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: HttpErrorDetails = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** 400 naming the field at fault: `<field>: <problem>`. */
export const invalidField = (field: string, problem: string) => new HttpError(400, `${field}: ${problem}`, { field });
export const notFound = (what = 'not found') => new HttpError(404, what);
export const unauthorized = (message: string) =>
  new HttpError(401, message, { headers: { 'WWW-Authenticate': 'Bearer' } });
/** 403: the credential is right, but its role does not allow this (src/domain/workspaces.ts). */
export const forbidden = (why: string) => new HttpError(403, why);
/** 409: the request is well formed but the thing is not in a state that allows it. */
export const conflict = (why: string) => new HttpError(409, why);
/** A create refused because the workspace holds as many as `setting` allows (src/domain/limits/workspace-sizes.ts). */
export const workspaceFull = (setting: string, held: number, what: string) =>
  conflict(
    `over ${setting}: this workspace holds ${held} ${what}, as many as it may (delete one, or raise the setting)`,
  );
export const methodNotAllowed = (allow: string) =>
  new HttpError(405, 'Method Not Allowed', { headers: { Allow: allow } });

/**
 * A bearer credential's check (the admin token, the Web UI's codec key): compared first, in constant
 * time, so the right one is never refused, whoever else shares its address. Only a wrong one counts
 * against its client address (src/core/throttle.ts): past the minute's allowance, a wrong one is answered
 * 429 instead of 401. A credential of 16 or more random characters stays unguessable at any rate.
 */
export function requireCredential(
  ctx: Context,
  given: string,
  expected: string,
  failures: Throttle,
  wrong: () => HttpError,
): void {
  if (given && secretsEqual(given, expected)) return;
  refuseCredential(ctx, failures, wrong);
}

/** Refuses a wrong credential: counted against its client address, 429 once past the minute's allowance. */
export function refuseCredential(ctx: Context, failures: Throttle, wrong: () => HttpError): never {
  failures.check(ctx.ip);
  failures.count(ctx.ip);
  throw wrong();
}

/** The credential of `Authorization: Bearer <credential>`, or '' when there is none. */
export function bearerOf(ctx: Context): string {
  const header = ctx.get('authorization');
  return header.startsWith('Bearer ') ? header.slice(7) : '';
}

/** The admin token's check (the codec endpoints): `Authorization: Bearer <admin token>`. */
export function requireAdminToken(ctx: Context, adminToken: string, failures: Throttle): void {
  requireCredential(ctx, bearerOf(ctx), adminToken, failures, () => unauthorized('missing or wrong admin token'));
}

/** A status with an empty body (set in this order: assigning a null body after the status makes it 204). */
export function answerEmpty(ctx: Context, status: number): void {
  ctx.body = null;
  ctx.status = status;
}

/**
 * A status with one line of text/plain, never sniffed as anything else (a webhook route's refusal:
 * src/receiver/refusals.ts), or an empty body when there is no line.
 */
export function answerLine(ctx: Context, status: number, line: string | undefined): void {
  if (line === undefined) return answerEmpty(ctx, status);
  ctx.status = status;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = `${line}\n`;
}

/** What a webhook route told the handler to answer an error of this status with (`ctx.state.refusalLine`). */
function refusalLineOf(ctx: Context, status: number): string | undefined {
  const lineOf = ctx.state.refusalLine as ((status: number) => string | undefined) | undefined;
  return lineOf?.(status);
}

/** Any thrown value as an HttpError: libraries' errors with a 4xx or 5xx status keep it. */
function toHttpError(raw: unknown): HttpError {
  if (raw instanceof HttpError) return raw;
  if (raw instanceof ZodError) return fromZod(raw);
  const like = raw as {
    status?: unknown;
    message?: unknown;
    expose?: boolean;
    expected?: boolean;
    headers?: Record<string, string>;
  };
  const status = typeof like?.status === 'number' && like.status >= 400 && like.status < 600 ? like.status : 500;
  const message = typeof like?.message === 'string' ? like.message : String(raw);
  // An error that says it is expected (the body budget's 503, a body too large) is one info line.
  return new HttpError(status, message, { expose: like?.expose, expected: like?.expected, headers: like?.headers });
}

/** Retry-After for 503 answers: long enough for a restart, short enough for senders' retries. */
const RETRY_AFTER_SECONDS = 5;

/**
 * Errors become JSON `{ "error", "field"? }` on the management API. Webhook routes set
 * `ctx.state.bareErrors`: senders get the status code with one line of text (the error's `answer`, or
 * what `ctx.state.refusalLine` gives for its status) or an empty body, and anything that is not an
 * HTTP error (database or engine unreachable) is a 503 with Retry-After, never a 200.
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
      const err = toHttpError(raw);
      let status = err.status;
      const where = {
        method: ctx.method,
        route: routeOf(ctx),
        ...(ctx.state.ids as Record<string, string> | undefined),
      };
      if (err.details.expected) log.info(`refused: ${err.message}`, { ...where, status });
      else if (status >= 500) log.error('request failed', { ...where, err: raw });
      if (ctx.state.bareErrors && status === 500) status = 503;
      for (const [k, v] of Object.entries(err.details.headers ?? {})) ctx.set(k, v);
      if (status === 503) ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
      if (ctx.state.bareErrors) return answerLine(ctx, status, err.details.answer ?? refusalLineOf(ctx, status));
      ctx.status = status;
      const message = status < 500 || err.details.expose ? err.message : 'internal error';
      const { field } = err.details;
      ctx.body = field ? { error: message, field } : { error: message };
    }
  };
}

/**
 * The route a request matched, never its path: a webhook path ends in the URL's token, the only
 * credential of a trigger, and no log line may hold it. An unmatched request is logged as such.
 */
function routeOf(ctx: Context): string {
  const route = (ctx as Context & { _matchedRoute?: string })._matchedRoute;
  return typeof route === 'string' ? route : '(no route)';
}

function fromZod(err: ZodError): HttpError {
  const issue = err.issues[0];
  // An unknown field is named itself, not by the object that holds it.
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : issue.path;
  return invalidField(path.join('.') || 'body', issue.message);
}

/** Reads and validates a JSON request body (1 MiB at most). */
export async function readJson<S extends ZodTypeAny>(ctx: Context, schema: S): Promise<output<S>> {
  const raw = await getRawBody(ctx.req, { limit: API_BODY_BYTES, encoding: 'utf8' });
  let value: unknown;
  try {
    value = raw.length === 0 ? {} : JSON.parse(raw);
  } catch {
    throw invalidField('body', 'invalid JSON');
  }
  return schema.parse(value);
}
