/**
 * Taking a delivery that was read whole (the rules: src/domain/deliveries.ts): an empty body is
 * dropped; a delivery whose signature does not verify (payment provider with a signing secret,
 * custom app with a verification scheme) is recorded as rejected; anything else starts the
 * delivery workflow, whose ID comes from the dedup key, so the engine refuses a repeat. A robot
 * that is paused gets its deliveries held. Once the start is accepted (or refused as a duplicate)
 * the delivery is durable and the sender may get 200. Anything else thrown means the delivery was
 * not taken (the route answers 503).
 */
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { isUtf8 } from 'node:buffer';
import type { Config } from '../config';
import { dedupKey, deliveryWorkflowId } from '../domain/dedup';
import { deliveryRecord, isEmptyBody, keptHeaders } from '../domain/deliveries';
import { newId } from '../domain/secrets';
import { SIGNATURE_HEADER, verifyStripeSignature } from '../domain/stripe-signature';
import type { DeliveryBody, DeliveryInput } from '../domain/types';
import { headersRead, senderDeliveryId, verifyCustomSignature, type Verdict } from '../domain/verification';
import { startDeliveryWorkflow } from '../deliveries/start';
import type { DeliveryRecorder } from '../history/slots';
import type { Logger } from '../log';
import { bodyBlobId, discardBlob, storeBlob } from '../storage/blobs';
import type { Models } from '../storage/models';
import { noteUnconfirmedBody } from './body-sweep';
import type { SenderVerification, WebhookTrigger } from './trigger-cache';

export interface TakeDeliveryDeps {
  config: Config;
  models: Models;
  temporal: Client;
  deliveries: DeliveryRecorder;
  log: Logger;
}

/** A request as the receiver read it. */
export interface DeliveryRequest {
  headers: Record<string, string | string[] | undefined>;
  contentType: string | null;
  body: Buffer;
  receivedAt: Date;
}

/** The ids every log line about the delivery carries. */
export type DeliveryIds = { deliveryId: string; robotId: string; workflowId?: string };

export type Taken =
  { outcome: 'empty' } | { outcome: 'rejected'; reason: string } | { outcome: 'accepted' | 'duplicate' };

export class DeliveryTaker {
  constructor(private readonly deps: TakeDeliveryDeps) {}

  /** Takes the delivery; `identified` hears its ids as soon as they are known (before any start). */
  async take(trigger: WebhookTrigger, req: DeliveryRequest, identified: (ids: DeliveryIds) => void): Promise<Taken> {
    if (isEmptyBody(req.body.length)) return { outcome: 'empty' };
    const { verification } = trigger;
    const scheme = verification && verification.scheme !== 'stripe' ? verification : null;
    const key = dedupKey(
      trigger.kind,
      req.headers,
      req.body,
      scheme ? senderDeliveryId(scheme.scheme, req.headers) : undefined,
    );
    const deliveryId = newId();
    const headers = keptHeaders(req.headers, scheme ? headersRead(scheme) : []);
    const forged = await this.rejectForgery(trigger, req, { deliveryId, key, headers });
    if (forged) {
      identified({ deliveryId, robotId: trigger.robotId });
      return { outcome: 'rejected', reason: forged };
    }
    const workflowId = deliveryWorkflowId(trigger.identifier, key);
    identified({ deliveryId, robotId: trigger.robotId, workflowId });
    const input: DeliveryInput = {
      deliveryId,
      robotId: trigger.robotId,
      triggerIdentifier: trigger.identifier,
      receivedAt: req.receivedAt.toISOString(),
      dedupKey: key,
      contentType: req.contentType,
      size: req.body.length,
      body: await this.bodyPayload(deliveryId, req.body),
      verified: verification ? true : trigger.kind === 'stripe' ? false : null,
      robotName: trigger.robotName,
      format: trigger.format,
      stepsVersion: trigger.stepsVersion,
      headers,
      ...(trigger.state === 'paused' ? { held: true } : {}),
    };
    return (await this.start(input, workflowId)) ? { outcome: 'accepted' } : { outcome: 'duplicate' };
  }

  /**
   * The signature is checked before the start, so a forged delivery never holds a real one's key.
   * A forgery is recorded as rejected; its reason is returned.
   */
  private async rejectForgery(
    trigger: WebhookTrigger,
    req: DeliveryRequest,
    { deliveryId, key, headers }: { deliveryId: string; key: string; headers: Record<string, string> },
  ): Promise<string | null> {
    if (!trigger.verification) return null;
    const verdict = verifySender(trigger.verification, req);
    if (verdict.ok) return null;
    const received = {
      deliveryId,
      robotId: trigger.robotId,
      triggerIdentifier: trigger.identifier,
      workflowId: null,
      dedupKey: key,
      receivedAt: req.receivedAt,
      contentType: req.contentType,
      size: req.body.length,
      verified: false,
      headers,
    };
    await this.deps.deliveries.record(deliveryRecord(received, { outcome: 'rejected', reason: verdict.reason }));
    return verdict.reason;
  }

  /** Small bodies travel in the workflow input (as text when valid UTF-8); larger are stored first. */
  private async bodyPayload(deliveryId: string, body: Buffer): Promise<DeliveryBody> {
    if (body.length <= this.deps.config.inlineBodyBytes) {
      return isUtf8(body)
        ? { kind: 'inline', encoding: 'utf8', data: body.toString('utf8') }
        : { kind: 'inline', encoding: 'base64', data: body.toString('base64') };
    }
    return { kind: 'stored', chunks: await storeBlob(this.deps.models, bodyBlobId(deliveryId), body) };
  }

  /** Starts the delivery workflow: true when started, false for a duplicate (its stored body is discarded). */
  private async start(input: DeliveryInput, workflowId: string): Promise<boolean> {
    const { config, models, temporal, log } = this.deps;
    const { deliveryId } = input;
    try {
      await startDeliveryWorkflow(temporal, config, input, workflowId);
      return true;
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
      if (input.body.kind === 'stored') await discardBlob(models, bodyBlobId(deliveryId), input.body.chunks);
      return false;
    }
  }
}

/** Checks the request's signature over its exact raw bytes, in the sender's scheme. */
function verifySender(verification: SenderVerification, req: DeliveryRequest): Verdict {
  if (verification.scheme !== 'stripe')
    return verifyCustomSignature(verification, req.headers, req.body, req.receivedAt.getTime());
  const header = req.headers[SIGNATURE_HEADER];
  const signature = (Array.isArray(header) ? header[0] : header) || undefined;
  return verifyStripeSignature(verification.secret, signature, req.body, req.receivedAt.getTime());
}
