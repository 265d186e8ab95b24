/**
 * Request ids (docs/operations.md, "Request ids"): every request to the service's port has one, taken
 * from its `X-Request-Id` when that is a sane token (REQUEST_ID_MAX_CHARS characters at most, of
 * `A-Z a-z 0-9 - _ . : + / =`), else made (a UUID). It is echoed on the answer's `X-Request-Id` and is
 * in every log line written while the request is worked, background work it started included: the
 * request runs in an AsyncLocalStorage whose id the logger adds to each line (src/core/log.ts `mixin`),
 * so no code passes a logger along. (Measured against a pino child logger per request: the storage's
 * `run` costs less than making a child, and reaches lines no child would, such as the error handler's.)
 *
 * An id a client sent is its own choice: it correlates lines, it proves nothing and may repeat.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { REQUEST_ID_MAX_CHARS } from '../domain/limits';

const SANE_ID = /^[A-Za-z0-9._:+/=-]+$/;
const worked = new AsyncLocalStorage<string>();

/** The id of the request being worked in this async context, if any. */
export const currentRequestId = (): string | undefined => worked.getStore();

/** The id a request gave, when it is one the service takes; else a fresh one. */
export function requestIdOf(given: string): string {
  return given.length > 0 && given.length <= REQUEST_ID_MAX_CHARS && SANE_ID.test(given) ? given : randomUUID();
}

/** Outermost on the service's port: gives the request its id, echoes it, and works the rest under it. */
export function requestIds(): Middleware {
  return (ctx, next) => {
    const id = requestIdOf(ctx.get('x-request-id'));
    ctx.set('X-Request-Id', id);
    ctx.state.requestId = id;
    return worked.run(id, next);
  };
}
