/**
 * POST and PUT /api/webhooks/<trigger_identifier>/<token>: check the token, read the raw body,
 * start the delivery workflow, answer 200 with an empty body once Temporal has accepted the
 * start (or refused it as a duplicate). Parsing and the run happen in the background.
 */
import Router from '@koa/router';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Context } from 'koa';
import { isUtf8 } from 'node:buffer';
import type { Config } from '../config';
import { DELIVERY_ID_REUSE_POLICY, dedupKey, deliveryWorkflowId } from '../domain/dedup';
import { deliveryRecord, isEmptyBody, type ReceivedDelivery } from '../domain/deliveries';
import { newId, secretsEqual } from '../domain/secrets';
import { SIGNATURE_HEADER, verifyStripeSignature } from '../domain/stripe-signature';
import type { DeliveryBody, DeliveryInput } from '../domain/types';
import { deliveryAttributes } from '../domain/search-attributes';
import type { Models } from '../storage/models';
import type { DeliveryRecorder } from '../history/slots';
import { bodyBlobId, discardBlob, storeBlob } from '../storage/blobs';
import type { TriggerCache, WebhookTrigger } from './trigger-cache';
import { BodyBudget } from './body-budget';
import { noteUnconfirmedBody, type DeliveryMemo } from './body-sweep';
import type { Logger } from '../log';
import { WEBHOOK_PATH } from '../domain/ids';
import { answerEmpty, HttpError, methodNotAllowed, notFound } from '../http';

export interface ReceiverDeps {
  config: Config;
  models: Models;
  temporal: Client;
  triggers: TriggerCache;
  deliveries: DeliveryRecorder;
  log: Logger;
}

/** 200 with an empty body: the answer to every delivery taken. */
const acknowledge = (ctx: Context) => answerEmpty(ctx, 200);

export function webhookRouter(deps: ReceiverDeps): Router {
  const { config, models, temporal, triggers, deliveries, log } = deps;

  async function triggerFor(ctx: Context): Promise<WebhookTrigger> {
    const { identifier, token } = ctx.params as { identifier: string; token: string };
    const trigger = await triggers.lookup(identifier);
    if (!trigger || !trigger.atWork || !secretsEqual(trigger.token, token)) throw notFound();
    return trigger;
  }

  /** The signature is checked before the start, so a forged event never holds a real event's key. */
  async function rejectForgery(ctx: Context, trigger: WebhookTrigger, body: Buffer, receivedAt: Date): Promise<void> {
    if (!trigger.signingSecret) return;
    const verdict = verifyStripeSignature(
      trigger.signingSecret,
      ctx.get(SIGNATURE_HEADER) || undefined,
      body,
      receivedAt.getTime(),
    );
    if (verdict.ok) return;
    const deliveryId = newId();
    const received: ReceivedDelivery = {
      deliveryId,
      robotId: trigger.robotId,
      triggerIdentifier: trigger.identifier,
      workflowId: null,
      dedupKey: dedupKey(trigger.kind, ctx.headers, body),
      receivedAt,
      contentType: ctx.get('content-type') || null,
      size: body.length,
      verified: false,
    };
    await deliveries.record(deliveryRecord(received, { outcome: 'rejected', reason: verdict.reason }));
    // An expected outcome: one info line with the delivery's ids (src/http.ts), and 400 with an empty body.
    ctx.state.ids = { deliveryId, robotId: trigger.robotId };
    throw new HttpError(400, `signature check failed: ${verdict.reason}`, { expected: true });
  }

  async function bodyPayload(deliveryId: string, body: Buffer): Promise<DeliveryBody> {
    if (body.length <= config.inlineBodyBytes) {
      return isUtf8(body)
        ? { kind: 'inline', encoding: 'utf8', data: body.toString('utf8') }
        : { kind: 'inline', encoding: 'base64', data: body.toString('base64') };
    }
    return { kind: 'stored', chunks: await storeBlob(models, bodyBlobId(deliveryId), body) };
  }

  const budget = new BodyBudget(config.maxInflightBodyBytes);

  async function receive(ctx: Context): Promise<void> {
    ctx.state.bareErrors = true;
    const trigger = await triggerFor(ctx);
    const receivedAt = new Date();
    await budget.withBody(ctx.req, config.maxBodyBytes, (body) => accept(ctx, trigger, body, receivedAt));
  }

  /** Starts the delivery workflow for a body that was read whole, and answers 200. */
  async function accept(ctx: Context, trigger: WebhookTrigger, body: Buffer, receivedAt: Date): Promise<void> {
    if (isEmptyBody(body.length)) {
      ctx.state.outcome = 'empty';
      return acknowledge(ctx); // dropped: no run, no error
    }
    await rejectForgery(ctx, trigger, body, receivedAt);

    const deliveryId = newId();
    const key = dedupKey(trigger.kind, ctx.headers, body);
    const workflowId = deliveryWorkflowId(trigger.identifier, key);
    ctx.state.ids = { deliveryId, robotId: trigger.robotId, workflowId };
    const input: DeliveryInput = {
      deliveryId,
      robotId: trigger.robotId,
      triggerIdentifier: trigger.identifier,
      receivedAt: receivedAt.toISOString(),
      dedupKey: key,
      contentType: ctx.get('content-type') || null,
      size: body.length,
      body: await bodyPayload(deliveryId, body),
      verified: trigger.kind === 'stripe' ? trigger.signingSecret !== null : null,
      robotName: trigger.robotName,
    };
    try {
      await temporal.withDeadline(Date.now() + config.temporal.startTimeoutMs, () =>
        temporal.workflow.start('deliveryWorkflow', {
          taskQueue: config.temporal.taskQueue,
          workflowId,
          args: [input],
          memo: { deliveryId } satisfies DeliveryMemo,
          typedSearchAttributes: deliveryAttributes(trigger.robotId, trigger.identifier),
          staticSummary: `Delivery for robot ${JSON.stringify(trigger.robotName)} (${body.length} bytes)`,
          workflowIdReusePolicy: DELIVERY_ID_REUSE_POLICY,
        }),
      );
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) {
        // Maybe started, maybe not: the sweep finds out later (body-sweep.ts).
        if (input.body.kind === 'stored') {
          const note = { _id: deliveryId, workflowId, chunks: input.body.chunks, at: new Date() };
          await noteUnconfirmedBody(models, note, log);
        }
        throw err;
      }
      // A duplicate delivery: answered 200 like the first, and nothing more happens.
      ctx.state.outcome = 'duplicate';
      if (input.body.kind === 'stored') await discardBlob(models, bodyBlobId(deliveryId), input.body.chunks);
    }
    acknowledge(ctx);
  }

  const router = new Router();
  router.post(WEBHOOK_PATH, receive);
  router.put(WEBHOOK_PATH, receive);
  router.all(WEBHOOK_PATH, (ctx) => {
    ctx.state.bareErrors = true;
    throw methodNotAllowed('POST, PUT');
  });
  return router;
}
