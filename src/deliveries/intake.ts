/**
 * Taking a request that was read whole (the rules: src/domain/deliveries.ts), in this order:
 * 1. a handshake its app's sender does not sign (a GET challenge, Microsoft Graph's validation,
 *    Asana's and Notion's secrets: src/domain/senders/) is answered and recorded as such, or
 *    refused; a secret it gives is kept sealed and pending on the URL before the answer, until an
 *    editor confirms it (src/robots/handshake-secrets.ts). Any other GET is not taken (405);
 * 2. an empty body is dropped;
 * 3. a delivery whose signature does not verify (payment provider with a signing secret, custom
 *    app with a sender) is recorded as rejected, naming the pending secret it was signed with if any;
 * 4. a verified handshake of the app's sender is recorded as such and answered, with no workflow;
 * 5. anything else starts the delivery workflow, whose ID comes from the dedup key, so the engine
 *    refuses a repeat. A robot that is paused gets its deliveries held.
 * Once the start is accepted (or refused as a duplicate) the delivery is durable and the sender
 * may get 200. Anything else thrown means the delivery was not taken (the route answers 503).
 */
import type { Client } from '@temporalio/client';
import type { Config } from '../core/config';
import { dedupOf } from '../domain/dedup';
import { deliveryWorkflowId } from '../domain/ids';
import { isEmptyBody } from '../domain/deliveries';
import { derivedKey } from '../domain/secrets';
import { senderDeliveryId, senderHandshake } from '../domain/senders/checks';
import type { Handshake, HandshakeAnswer, SenderRequest } from '../domain/senders/parts';
import { senderRequest, verifyRequest, type DeliveryRequest } from './request';
import { readsFormEnvelope, SENDERS } from '../domain/senders/catalog';
import type { RefusalStatus } from '../domain/senders/catalog/sender';
import { secretFingerprint, type Offered } from '../robots/handshake-secrets';
import { deliveryInput } from './input';
import { startDelivery } from './start';
import type { DeliveryRecorder } from '../history/slots';
import type { IssueCounter } from '../issues/counter';
import type { Logger } from '../core/log';
import type { Models } from '../storage/models';
import { ReceiverRecords, type Arrived } from './receiver-records';
import type { WebhookTrigger } from './webhook-trigger';

interface TakeDeliveryDeps {
  config: Config;
  models: Models;
  temporal: Client;
  deliveries: DeliveryRecorder;
  log: Logger;
  /** The process's issue counter (src/issues/counter.ts): refusals past the throttle count in it. */
  issues?: IssueCounter;
  /**
   * Keeps a secret the sender gave in a handshake, sealed and pending on the trigger's URL, and
   * records a new one in the audit log; what it became. The answer waits for it.
   */
  offerSecret(trigger: WebhookTrigger, secret: string, from: { address: string; at: Date }): Promise<Offered | null>;
}

/** The ids every log line about the delivery carries. */
type DeliveryIds = { deliveryId: string; robotId: string; workspaceId: string; workflowId?: string };

export type Taken =
  | { outcome: 'empty' }
  /** A GET that is no handshake of the app's sender. */
  | { outcome: 'not-a-handshake' }
  /** Refused with the sender's status (400 unless it requires another: Discord's 401, Meta's 403). */
  | { outcome: 'rejected'; reason: string; status: RefusalStatus | 403 }
  | { outcome: 'handshake'; answer: HandshakeAnswer }
  | { outcome: 'accepted' | 'duplicate' };

export class DeliveryTaker {
  /** Keys the digests in dedup keys (src/domain/dedup.ts). */
  private readonly digestKey: Buffer;
  /** What it answers itself, recorded (./receiver-records.ts): refusals, handshakes, repeats. */
  readonly records: ReceiverRecords;

  constructor(private readonly deps: TakeDeliveryDeps) {
    this.digestKey = derivedKey(deps.config.secretsKey, 'dedup');
    this.records = new ReceiverRecords(deps, this.digestKey);
  }

  /** Takes the delivery; `identified` hears its ids as soon as they are known (before any start). */
  async take(trigger: WebhookTrigger, req: DeliveryRequest, identified: (ids: DeliveryIds) => void): Promise<Taken> {
    const { verification } = trigger;
    const sender = verification && verification.scheme !== 'stripe' ? verification : null;
    const signedWith = verification?.scheme ?? null;
    const ids = this.records.arrived(trigger, req);
    const { deliveryId, headers, inspected } = ids;
    // What the log lines about it carry (src/core/log.ts), its workflow once known.
    const known = { deliveryId, robotId: trigger.robotId, workspaceId: trigger.workspaceId };
    const request = sender && senderRequest(req);
    const unsigned = sender && request && senderHandshake(sender, request, false);
    if (unsigned) {
      identified(known);
      return this.handshake(trigger, req, ids, unsigned, null);
    }
    if (req.method !== 'POST' && req.method !== 'PUT') return { outcome: 'not-a-handshake' };
    if (isEmptyBody(req.body.length)) return { outcome: 'empty' };
    // Checked before anything parses the body: a forgery is keyed by its digest.
    const status = sender ? SENDERS[sender.scheme].refusalStatus : 400;
    const forged = await this.rejectForgery(trigger, req, ids, request, status);
    if (forged) {
      identified(known);
      return { outcome: 'rejected', reason: forged, status };
    }
    const signed = sender && request && senderHandshake(sender, request, true);
    if (signed) {
      identified(known);
      return this.handshake(trigger, req, ids, signed, true);
    }
    const senderId = sender && request ? senderDeliveryId(sender, request) : undefined;
    const source = {
      kind: trigger.kind,
      signedWith,
      headers: req.headers,
      body: req.body,
      senderId,
      choice: trigger.dedup,
    };
    const { key, windowMs } = dedupOf(source, this.digestKey, deliveryId);
    const workflowId = deliveryWorkflowId(trigger.identifier, key);
    identified({ ...known, workflowId });
    const verified = verification ? true : trigger.kind === 'stripe' ? false : null;
    const input = await deliveryInput(this.deps.models, this.deps.config.inlineBodyBytes, {
      deliveryId,
      robot: {
        id: trigger.robotId,
        workspaceId: trigger.workspaceId,
        name: trigger.robotName,
        state: trigger.state,
        format: trigger.format,
        formEnvelope: readsFormEnvelope(trigger.format, sender?.scheme ?? null),
        sender: sender?.scheme ?? null,
        stepsVersion: trigger.stepsVersion,
      },
      triggerIdentifier: trigger.identifier,
      receivedAt: req.receivedAt,
      dedupKey: key,
      contentType: req.contentType,
      bytes: req.body,
      verified,
      headers,
      request: inspected,
    });
    const lookUpOriginal = this.records.duplicates.within(trigger.identifier);
    const started = await startDelivery(this.deps, input, workflowId, { windowMs, lookUpOriginal });
    if (started.started) return { outcome: 'accepted' };
    const acknowledged = sender ? (SENDERS[sender.scheme].acknowledgeStatus ?? 200) : 200;
    const repeat = { ...ids, key, workflowId, verified, status: acknowledged };
    await this.records.duplicate(trigger, req, repeat, started.duplicateOf);
    return { outcome: 'duplicate' };
  }

  /**
   * The signature is checked before the start, so a forged delivery never holds a real one's key.
   * A forgery is recorded as rejected; its reason is returned.
   */
  private async rejectForgery(
    trigger: WebhookTrigger,
    req: DeliveryRequest,
    ids: Arrived,
    request: SenderRequest | null,
    status: number,
  ): Promise<string | null> {
    const v = trigger.verification;
    if (!v) return null;
    const verdict = verifyRequest(v, req, request);
    if (verdict.ok) return null;
    const pending =
      v.scheme === 'stripe'
        ? undefined
        : trigger.pendingSecrets.find((secret) => verifyRequest({ ...v, secret }, req, request).ok);
    const reason =
      pending === undefined
        ? verdict.reason
        : `signed with the secret ${secretFingerprint(pending)} a handshake gave, which no editor has confirmed: ` +
          "confirm it on the robot's card";
    await this.records.refusal(trigger, req, ids, reason, status);
    return reason;
  }

  /**
   * A handshake: refused (recorded as rejected), or answered once a secret it gave is kept, and
   * recorded; a note (Twitch's revocation) is logged.
   */
  private async handshake(
    trigger: WebhookTrigger,
    req: DeliveryRequest,
    ids: Arrived,
    h: Handshake,
    verified: true | null,
  ): Promise<Taken> {
    const robotId = trigger.robotId;
    if ('refused' in h) {
      await this.records.refusal(trigger, req, ids, h.refused, h.status, 'handshake');
      return { outcome: 'rejected', reason: h.refused, status: h.status };
    }
    // Throttled before anything is kept: a handshake answered 429 has changed nothing.
    this.records.admit(trigger);
    if (h.learnedSecret !== undefined) {
      const offered = await this.deps.offerSecret(trigger, h.learnedSecret, {
        address: req.address,
        at: req.receivedAt,
      });
      if (offered === 'pending')
        this.deps.log.info('a sender gave a secret in a handshake: pending until an editor confirms it', {
          robotId,
          deliveryId: ids.deliveryId,
          fingerprint: secretFingerprint(h.learnedSecret),
        });
    }
    if (h.note) this.deps.log.warn(h.note, { deliveryId: ids.deliveryId, robotId });
    await this.records.handshake(trigger, req, ids, verified, h.answer.status);
    return { outcome: 'handshake', answer: h.answer };
  }
}
