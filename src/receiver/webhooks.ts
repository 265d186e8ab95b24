/**
 * POST and PUT /api/webhooks/<trigger_identifier>/<token>: check the token, read the raw body
 * within the body budget, take the delivery (src/deliveries/intake.ts) and answer: 200 with an empty
 * body once it is durable, or a refusal with one line of text saying why (./refusals.ts, rendered by
 * src/core/http-errors.ts). Parsing and the run happen in the background. A handshake of the app's
 * sender (src/domain/senders/) gets the answer the sender expects instead, always `nosniff` and never
 * HTML; GET is answered only for a sender whose handshake is a GET (Meta, Dropbox, Okta), else 405.
 *
 * A token pasted with a trailing space, tab, newline or `+` (`%20`, `%0A`, `%0D%0A`) is read without
 * them: a token never holds one. A token that is not the trigger's (a typo, one rotated out) is
 * answered as an unknown URL, and recorded on the robot's deliveries log as a refusal within the
 * URL's refusal throttle (`ReceiverRecords.wrongToken`), in the background so the answer takes no
 * longer than for an identifier that does not exist.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import type { Config } from '../core/config';
import { WEBHOOK_PATH } from '../domain/ids';
import { answerEmpty, HttpError, methodNotAllowed } from '../core/http-errors';
import type { Logger } from '../core/log';
import type { Operation } from '../contract/operation';
import { BodyBudget } from './body-budget';
import type { DeliveryTaker } from '../deliveries/intake';
import { triggerTakesDeliveries, type WebhookTrigger } from '../deliveries/webhook-trigger';
import { tokenAccepted } from '../robots/trigger-tokens';
import type { TriggerCache } from './trigger-cache';
import type { HandshakeAnswer } from '../domain/senders/parts';
import { answersMethod } from '../domain/senders/checks';
import { SENDERS } from '../domain/senders/catalog';
import type { DeliveryRequest } from '../deliveries/request';
import { REFUSALS, refusalByStatus, signatureRefusal } from './refusals';

interface ReceiverDeps {
  config: Config;
  triggers: TriggerCache;
  /** What takes a delivery, made once a process (src/runtime/delivery-taker.ts). */
  taker: DeliveryTaker;
  log: Logger;
}

/** The webhook URL's operations, as data: the router below mounts these, and the OpenAPI document shows them. */
export const WEBHOOK_OPERATIONS: readonly Operation[] = (['post', 'put'] as const).map((method) => ({
  operationId: method === 'post' ? 'deliverWebhook' : 'deliverWebhookByPut',
  method,
  path: WEBHOOK_PATH,
  summary:
    `Deliver a webhook (${method.toUpperCase()} and ${method === 'post' ? 'PUT' : 'POST'} behave the same). ` +
    'The token in the path is the only credential. A delivery taken is 200 with an empty body, or 204 where ' +
    "the sender requires it (Discord); a handshake of the app's sender (docs/api.md#senders) gets the answer " +
    "that sender expects (text/plain or JSON). A refusal is 400, or the sender's own status (Discord and Xero " +
    '401, GoCardless 498), with one line of text/plain saying why (docs/api.md#what-a-webhook-url-answers).',
  access: 'open',
  body: 'raw',
  answers: {
    // One 2xx as every operation declares; a Discord app's deliveries and its PING are answered 204.
    200: 'empty',
    400: 'line',
    401: 'line',
    404: 'line',
    408: 'line',
    413: 'line',
    429: 'line',
    // GoCardless' status for a signature that does not verify.
    498: 'line',
    503: 'line',
  },
}));

/** The GET a sender checks the URL with (Meta, Dropbox, Okta, X): answered only for an app of that sender. */
export const HANDSHAKE_OPERATION: Operation = {
  operationId: 'checkWebhookUrl',
  method: 'get',
  path: WEBHOOK_PATH,
  summary:
    "A sender's check of the URL by GET (Meta's hub.challenge, Dropbox's challenge, Okta's verification " +
    "header, X's CRC) or HEAD (Trello, Mandrill): answered as that sender expects for an app of that sender, " +
    'else 405.',
  access: 'open',
  answers: { 200: 'empty', 400: 'line', 403: 'line', 404: 'line', 405: 'line', 429: 'line', 503: 'line' },
};

/** A webhook route's errors: a status and one line (./refusals.ts), never the management API's JSON. */
function answerAsWebhook(ctx: Context): void {
  ctx.state.bareErrors = true;
  ctx.state.refusalLine = refusalByStatus;
}

/** The URL's token as pasted: a trailing space, tab, newline or `+` (none is ever in a token) left out. */
export const pastedToken = (token: string): string => token.replace(/[\s+]+$/, '');

/** The request as the receiver read it (src/deliveries/request.ts). */
function requestOf(ctx: Context, publicBase: string, body: Buffer, receivedAt: Date): DeliveryRequest {
  return {
    method: ctx.method,
    // The path and query as sent (never an absolute-form request line's scheme and host).
    publicUrl: publicBase + ctx.path + (ctx.querystring ? `?${ctx.querystring}` : ''),
    headers: ctx.headers,
    contentType: ctx.get('content-type') || null,
    body,
    receivedAt,
    address: ctx.ip,
  };
}

/** 200 with an empty body, the answer to every delivery taken, unless its sender requires another (Discord's 204). */
const acknowledge = (ctx: Context, trigger: WebhookTrigger) => {
  const v = trigger.verification;
  answerEmpty(ctx, v && v.scheme !== 'stripe' ? (SENDERS[v.scheme].acknowledgeStatus ?? 200) : 200);
};

/** The sender's check of the URL, answered as it expects: never sniffed as anything but its type. */
function answerHandshake(ctx: Context, answer: HandshakeAnswer): void {
  for (const [name, value] of Object.entries(answer.headers ?? {})) ctx.set(name, value);
  ctx.set('X-Content-Type-Options', 'nosniff');
  if (answer.body === undefined) return answerEmpty(ctx, answer.status);
  ctx.status = answer.status;
  ctx.type = answer.contentType ?? 'text/plain';
  ctx.body = answer.body;
}

export function webhookRouter(deps: ReceiverDeps): Router {
  const { config, triggers, taker, log } = deps;

  /** The URL's trigger; else 404 as for an unknown URL, a wrong or old token recorded on its robot. */
  async function triggerFor(ctx: Context): Promise<WebhookTrigger> {
    const { identifier, token: pasted } = ctx.params as { identifier: string; token: string };
    const token = pastedToken(pasted);
    const accepted = (t: WebhookTrigger | null): boolean =>
      t !== null && triggerTakesDeliveries(t) && tokenAccepted(t.tokens, token);
    const trigger = await triggers.lookupFor(identifier, accepted);
    if (trigger && accepted(trigger)) return trigger;
    if (trigger && !tokenAccepted(trigger.tokens, token)) {
      const request = requestOf(ctx, config.baseUrl, Buffer.alloc(0), new Date());
      void taker.records.wrongToken(trigger, request).catch((err: Error) =>
        log.warn('a wrong token could not be recorded in the deliveries log', {
          robotId: trigger.robotId,
          err,
        }),
      );
    }
    throw new HttpError(404, 'not found', { answer: REFUSALS.unknown });
  }

  const budget = new BodyBudget({
    total: config.maxInflightBodyBytes,
    perTrigger: config.maxInflightBodyBytesPerTrigger,
    idleMs: config.http.bodyIdleTimeoutMs,
  });

  async function receive(ctx: Context): Promise<void> {
    answerAsWebhook(ctx);
    const trigger = await triggerFor(ctx);
    const receivedAt = new Date();
    await budget.withBody(ctx.req, trigger.identifier, config.maxBodyBytes, (body) =>
      accept(ctx, trigger, body, receivedAt),
    );
  }

  /** A GET: a handshake of the app's sender, or 405. No body is read. */
  async function check(ctx: Context): Promise<void> {
    answerAsWebhook(ctx);
    const trigger = await triggerFor(ctx);
    const v = trigger.verification;
    if (!v || v.scheme === 'stripe' || !answersMethod(v, ctx.method)) throw methodNotAllowed('POST, PUT');
    await accept(ctx, trigger, Buffer.alloc(0), new Date());
  }

  /** Takes a body that was read whole, and answers 200 unless its signature does not verify. */
  async function accept(ctx: Context, trigger: WebhookTrigger, body: Buffer, receivedAt: Date): Promise<void> {
    const request = requestOf(ctx, config.baseUrl, body, receivedAt);
    const taken = await taker.take(trigger, request, (ids) => (ctx.state.ids = ids));
    // An expected refusal: one info line with the delivery's ids (src/core/http-errors.ts), and one line to its sender.
    if (taken.outcome === 'rejected') {
      const answer = signatureRefusal(taken.reason, taken.status);
      throw new HttpError(taken.status, `signature check failed: ${taken.reason}`, { expected: true, answer });
    }
    if (taken.outcome === 'not-a-handshake') throw methodNotAllowed('POST, PUT');
    if (taken.outcome !== 'accepted') ctx.state.outcome = taken.outcome;
    if (taken.outcome !== 'handshake') return acknowledge(ctx, trigger);
    answerHandshake(ctx, taken.answer);
  }

  const router = new Router();
  for (const op of WEBHOOK_OPERATIONS) router[op.method](op.path, receive);
  router.get(HANDSHAKE_OPERATION.path, check);
  router.all(WEBHOOK_PATH, (ctx) => {
    answerAsWebhook(ctx);
    throw methodNotAllowed('POST, PUT');
  });
  return router;
}
