/**
 * POST and PUT /api/webhooks/<trigger_identifier>/<token>: check the token, read the raw body
 * within the body budget, take the delivery (src/deliveries/intake.ts) and answer: 200 with an empty
 * body once it is durable, or an empty error (src/core/http-errors.ts). Parsing and the run happen in the
 * background.
 */
import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import type { Context } from 'koa';
import type { Config } from '../core/config';
import { WEBHOOK_PATH } from '../domain/ids';
import type { DeliveryRecorder } from '../history/slots';
import { answerEmpty, HttpError, methodNotAllowed, notFound } from '../core/http-errors';
import type { Logger } from '../core/log';
import type { Models } from '../storage/models';
import type { Operation } from '../contract/operation';
import { BodyBudget } from './body-budget';
import { DeliveryTaker, triggerTakesDeliveries, type WebhookTrigger } from '../deliveries/intake';
import { tokenAccepted } from '../robots/trigger-tokens';
import type { TriggerCache } from './trigger-cache';

interface ReceiverDeps {
  config: Config;
  models: Models;
  temporal: Client;
  triggers: TriggerCache;
  deliveries: DeliveryRecorder;
  log: Logger;
}

/** The webhook URL's operations, as data: the router below mounts these, and the OpenAPI document shows them. */
export const WEBHOOK_OPERATIONS: readonly Operation[] = (['post', 'put'] as const).map((method) => ({
  method,
  path: WEBHOOK_PATH,
  summary:
    `Deliver a webhook (${method.toUpperCase()} and ${method === 'post' ? 'PUT' : 'POST'} behave the same). ` +
    'The token in the path is the only credential. Every answer has an empty body but one: a handshake ' +
    "(Slack's url_verification to an app with the slack preset) gets its challenge back as text/plain.",
  admin: false,
  body: 'raw',
  answers: { 200: 'empty', 400: 'empty', 404: 'empty', 408: 'empty', 413: 'empty', 429: 'empty', 503: 'empty' },
}));

/** 200 with an empty body: the answer to every delivery taken. */
const acknowledge = (ctx: Context) => answerEmpty(ctx, 200);

export function webhookRouter(deps: ReceiverDeps): Router {
  const { config, triggers } = deps;
  const taker = new DeliveryTaker(deps);

  async function triggerFor(ctx: Context): Promise<WebhookTrigger> {
    const { identifier, token } = ctx.params as { identifier: string; token: string };
    const accepted = (t: WebhookTrigger | null): t is WebhookTrigger =>
      t !== null && triggerTakesDeliveries(t) && tokenAccepted(t.tokens, token);
    const trigger = await triggers.lookupFor(identifier, accepted);
    if (!accepted(trigger)) throw notFound();
    return trigger;
  }

  const budget = new BodyBudget({
    total: config.maxInflightBodyBytes,
    perTrigger: config.maxInflightBodyBytesPerTrigger,
    idleMs: config.http.bodyIdleTimeoutMs,
  });

  async function receive(ctx: Context): Promise<void> {
    ctx.state.bareErrors = true;
    const trigger = await triggerFor(ctx);
    const receivedAt = new Date();
    await budget.withBody(ctx.req, trigger.identifier, config.maxBodyBytes, (body) =>
      accept(ctx, trigger, body, receivedAt),
    );
  }

  /** Takes a body that was read whole, and answers 200 unless its signature does not verify. */
  async function accept(ctx: Context, trigger: WebhookTrigger, body: Buffer, receivedAt: Date): Promise<void> {
    const request = { headers: ctx.headers, contentType: ctx.get('content-type') || null, body, receivedAt };
    const taken = await taker.take(trigger, request, (ids) => (ctx.state.ids = ids));
    // An expected refusal: one info line with the delivery's ids (src/core/http-errors.ts), and 400 with an empty body.
    if (taken.outcome === 'rejected') {
      throw new HttpError(400, `signature check failed: ${taken.reason}`, { expected: true });
    }
    if (taken.outcome !== 'accepted') ctx.state.outcome = taken.outcome;
    if (taken.outcome !== 'handshake') return acknowledge(ctx);
    // The sender's check of the URL, answered as it expects (src/domain/handshakes.ts).
    ctx.status = 200;
    ctx.type = taken.answer.contentType;
    ctx.body = taken.answer.body;
  }

  const router = new Router();
  for (const op of WEBHOOK_OPERATIONS) router[op.method](op.path, receive);
  router.all(WEBHOOK_PATH, (ctx) => {
    ctx.state.bareErrors = true;
    throw methodNotAllowed('POST, PUT');
  });
  return router;
}
