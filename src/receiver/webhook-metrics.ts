/**
 * Counts every answer on a webhook URL (src/core/metrics.ts): its status, how long it took, and what
 * the receiver did with the delivery; and every other answer of the service's port by status. It
 * runs outside the error handler, so it sees the status the client got, errors included.
 */
import type { Middleware } from 'koa';
import type { ReceiverMetrics, ReceiverOutcome } from '../core/metrics';
import { BodyBudgetExceeded } from './body-budget';

/** What the webhook route tells this middleware, on `ctx.state`. */
interface WebhookState {
  /** Set by the webhook routes: this request is a delivery (its errors have empty bodies). */
  bareErrors?: boolean;
  /** Set where the route knows it (a 200 that was a duplicate or an empty body). */
  outcome?: ReceiverOutcome;
  /** The error the error handler rendered, if any. */
  error?: unknown;
}

function outcomeOf(state: WebhookState, status: number): ReceiverOutcome {
  if (state.outcome) return state.outcome;
  if (status === 200) return 'accepted';
  if (status === 400) return 'rejected';
  if (status === 404) return 'unknown';
  if (status === 413) return 'too_large';
  if (status === 408) return 'timeout';
  if (status === 429) return 'throttled';
  if (status === 503) return state.error instanceof BodyBudgetExceeded ? 'busy' : 'unavailable';
  return 'refused';
}

export function countWebhookAnswers(metrics: ReceiverMetrics): Middleware {
  return async (ctx, next) => {
    const end = metrics.ackDuration.startTimer();
    await next();
    const state = ctx.state as WebhookState;
    if (!state.bareErrors) {
      metrics.apiResponses.inc({ code: String(ctx.status) });
      return;
    }
    end();
    metrics.responses.inc({ code: String(ctx.status) });
    metrics.deliveries.inc({ outcome: outcomeOf(state, ctx.status) });
  };
}
