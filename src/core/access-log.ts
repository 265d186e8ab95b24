/**
 * The access log (docs/operations.md, "The access log"): one `info` line per request to the service's
 * port, once its answer is made: `msg: "request"`, `method`, `path` (a webhook URL's token masked as
 * the card masks it, `…` and its last 4 characters; no query), `status`, `bytes` (the answer's body as
 * sent, compressed or not; 0 for HEAD, 204 and 304), `durationMs` (from its headers read to its answer
 * made, the body's reading included, its sending not) and `requestId` (src/core/request-ids.ts, inside
 * which this runs), with the delivery's ids where the webhook route knew them. `LOG_LEVEL=warn` turns
 * it off (with the other `info` lines).
 */
import type { Context, Middleware } from 'koa';
import { performance } from 'node:perf_hooks';
import { maskedPath } from '../domain/inspection';
import type { Logger } from './log';

/** Paths that may hold a webhook URL's token (matched as the router does, in any case). */
const MAY_HOLD_TOKEN = /webhooks/i;

/** The answer's body in bytes, as it goes out (Koa leaves out the body of HEAD, 204 and 304 answers). */
function bytesOf(ctx: Context): number | undefined {
  if (ctx.method === 'HEAD' || ctx.status === 204 || ctx.status === 304 || ctx.body == null) return 0;
  const length = ctx.response.get('Content-Length');
  // No length yet: a JSON object the compression did not see (a sender's JSON handshake); a stream's is unknown.
  return length === '' ? ctx.response.length : Number(length);
}

export function accessLog(log: Logger): Middleware {
  // Below `info` (LOG_LEVEL=warn) the line would be built and dropped on every request: no middleware.
  if (!log.enabled('info')) return (_ctx, next) => next();
  return async (ctx, next) => {
    const start = performance.now();
    let status: number | undefined;
    try {
      await next();
    } catch (err) {
      // Past the error handler only when something outside it failed: Koa answers 500 (or the error's).
      status = (err as { status?: number }).status ?? 500;
      throw err;
    } finally {
      log.info('request', {
        method: ctx.method,
        path: MAY_HOLD_TOKEN.test(ctx.path) ? maskedPath(ctx.path) : ctx.path,
        status: status ?? ctx.status,
        bytes: status === undefined ? bytesOf(ctx) : undefined,
        durationMs: Math.round((performance.now() - start) * 10) / 10,
        ...(ctx.state.ids as Record<string, string> | undefined),
      });
    }
  };
}
