/**
 * Taking a delivery that was read whole (the rules: src/domain/deliveries.ts): an empty body is
 * dropped; a delivery whose signature does not verify (payment provider with a signing secret,
 * custom app with a verification scheme) is recorded as rejected; anything else starts the
 * delivery workflow, whose ID comes from the dedup key, so the engine refuses a repeat. A verified
 * handshake of the preset's sender (src/domain/handshakes.ts) is recorded as such and answered,
 * with no workflow. A robot that is paused gets its deliveries held. Once the start is accepted
 * (or refused as a duplicate) the delivery is durable and the sender may get 200. Anything else
 * thrown means the delivery was not taken (the route answers 503).
 */
import type { Client } from '@temporalio/client';
import type { Config } from '../core/config';
import { bodyKey, dedupOf, deliveryWorkflowId, SIGNED_REPLAY_WINDOW_MS, type DedupChoice } from '../domain/dedup';
import { DUPLICATES_LOGGED_PER_MINUTE, THROTTLE_ENTRIES } from '../domain/limits';
import { deliveryRecord, isEmptyBody, keptHeaders, type ReceivedDelivery } from '../domain/deliveries';
import { handshakeAnswer, type HandshakeAnswer } from '../domain/handshakes';
import { derivedKey, newId } from '../domain/secrets';
import { SIGNATURE_HEADER, verifyStripeSignature } from '../domain/stripe-signature';
import { headersRead, verifyCustomSignature, type Verdict } from '../domain/verification';
import { deliveryInput } from './input';
import { startDelivery } from './start';
import type { DeliveryRecorder } from '../history/slots';
import type { Logger } from '../core/log';
import type { Models } from '../storage/models';
import { Throttle } from '../core/throttle';
import { takesDeliveries } from '../domain/robot-lifecycle';
import type { BodyFormat, RobotState, TriggerKind } from '../domain/types';
import type { CustomVerification } from '../domain/verification';
import type { TokenHashes } from '../robots/trigger-tokens';

/** A robot's webhook trigger as the receiver takes its deliveries (read through src/receiver/trigger-cache.ts). */
export interface WebhookTrigger {
  robotId: string;
  /** For the workflow's summary in the Temporal Web UI. */
  robotName: string;
  identifier: string;
  kind: TriggerKind;
  /** Hashes of the tokens its URL accepts (src/robots/trigger-tokens.ts). */
  tokens: TokenHashes;
  state: RobotState;
  /** How its senders sign, when they must: the payment provider's signing secret, or the custom app's scheme. */
  verification: SenderVerification | null;
  /** The app's body format (json for the payment provider), noted in each delivery. */
  format: BodyFormat;
  /** The robot's steps version, noted in each delivery (src/robots/steps-versions.ts). */
  stepsVersion: number;
  /** Headers its trigger rules read, kept with each delivery (src/domain/trigger-rules.ts). */
  ruleHeaders: string[];
  /** What its deliveries are told apart by, and for how long (src/domain/dedup.ts). */
  dedup: DedupChoice;
}

/** A signature check the receiver makes before a delivery starts. */
export type SenderVerification = { scheme: 'stripe'; secret: string } | CustomVerification;

/** Whether the trigger's URL takes deliveries: at work, or paused (they wait for the robot to be resumed). */
export function triggerTakesDeliveries(trigger: WebhookTrigger): boolean {
  return takesDeliveries(trigger.state);
}

interface TakeDeliveryDeps {
  config: Config;
  models: Models;
  temporal: Client;
  deliveries: DeliveryRecorder;
  log: Logger;
}

/** A delivery the receiver answers itself is known by its id and the headers kept with it. */
type ReceiverIds = { deliveryId: string; headers: Record<string, string> };

/** A request as the receiver read it. */
interface DeliveryRequest {
  headers: Record<string, string | string[] | undefined>;
  contentType: string | null;
  body: Buffer;
  receivedAt: Date;
}

/** The ids every log line about the delivery carries. */
type DeliveryIds = { deliveryId: string; robotId: string; workflowId?: string };

export type Taken =
  | { outcome: 'empty' }
  | { outcome: 'rejected'; reason: string }
  | { outcome: 'handshake'; answer: HandshakeAnswer }
  | { outcome: 'accepted' | 'duplicate' };

export class DeliveryTaker {
  /** Keys the digests in dedup keys (src/domain/dedup.ts). */
  private readonly digestKey: Buffer;
  /** Rejected deliveries and handshakes recorded per trigger this minute (src/core/throttle.ts). */
  private readonly rejections: Throttle;
  /** Duplicates recorded per trigger this minute (DUPLICATES_LOGGED_PER_MINUTE). */
  private readonly duplicates = new Throttle('duplicates logged for this URL', DUPLICATES_LOGGED_PER_MINUTE);
  /**
   * Handshakes recorded, by trigger and body digest, for as long as a signed capture verifies
   * (SIGNED_REPLAY_WINDOW_MS): one sent again is answered, but recorded once.
   */
  private readonly handshakesSeen = new Throttle('handshakes', 1, THROTTLE_ENTRIES, SIGNED_REPLAY_WINDOW_MS);

  constructor(private readonly deps: TakeDeliveryDeps) {
    this.digestKey = derivedKey(deps.config.secretsKey, 'dedup');
    this.rejections = new Throttle(
      'refused deliveries and handshakes for this URL',
      deps.config.throttles.rejectedPerMinute,
    );
  }

  /** Takes the delivery; `identified` hears its ids as soon as they are known (before any start). */
  async take(trigger: WebhookTrigger, req: DeliveryRequest, identified: (ids: DeliveryIds) => void): Promise<Taken> {
    if (isEmptyBody(req.body.length)) return { outcome: 'empty' };
    const { verification } = trigger;
    const scheme = verification && verification.scheme !== 'stripe' ? verification : null;
    const signedWith = verification?.scheme ?? null;
    const deliveryId = newId();
    // Those its app's scheme and its robot's trigger rules read are kept too.
    const headers = keptHeaders(req.headers, [...(scheme ? headersRead(scheme) : []), ...trigger.ruleHeaders]);
    // Checked before anything parses the body: a forgery is keyed by its digest.
    const forged = await this.rejectForgery(trigger, req, { deliveryId, headers });
    if (forged) {
      identified({ deliveryId, robotId: trigger.robotId });
      return { outcome: 'rejected', reason: forged };
    }
    const handshake = verification && handshakeAnswer(verification.scheme, req.body);
    if (handshake) {
      identified({ deliveryId, robotId: trigger.robotId });
      await this.recordHandshake(trigger, req, { deliveryId, headers });
      return { outcome: 'handshake', answer: handshake };
    }
    const source = { kind: trigger.kind, signedWith, headers: req.headers, body: req.body, choice: trigger.dedup };
    const { key, windowMs } = dedupOf(source, this.digestKey, deliveryId);
    const workflowId = deliveryWorkflowId(trigger.identifier, key);
    identified({ deliveryId, robotId: trigger.robotId, workflowId });
    const verified = verification ? true : trigger.kind === 'stripe' ? false : null;
    const input = await deliveryInput(this.deps.models, this.deps.config.inlineBodyBytes, {
      deliveryId,
      robot: {
        id: trigger.robotId,
        name: trigger.robotName,
        state: trigger.state,
        format: trigger.format,
        stepsVersion: trigger.stepsVersion,
      },
      triggerIdentifier: trigger.identifier,
      receivedAt: req.receivedAt,
      dedupKey: key,
      contentType: req.contentType,
      bytes: req.body,
      verified,
      headers,
    });
    const lookUpOriginal = this.duplicates.within(trigger.identifier);
    const started = await startDelivery(this.deps, input, workflowId, { windowMs, lookUpOriginal });
    if (started.started) return { outcome: 'accepted' };
    // A repeat: recorded with the delivery it repeats, a few a minute per URL at most.
    if (this.duplicates.take(trigger.identifier)) {
      const received = { ...this.received(trigger, req, { deliveryId, key, headers }, verified), workflowId };
      const verdict = { outcome: 'duplicate' as const, duplicateOf: started.duplicateOf };
      // The repeat was refused already: a record that fails is logged, and the sender still gets 200.
      await this.deps.deliveries.record(deliveryRecord(received, verdict)).catch((err: Error) =>
        this.deps.log.warn('a duplicate could not be recorded in the deliveries log', {
          deliveryId,
          robotId: trigger.robotId,
          err: err.message,
        }),
      );
    }
    return { outcome: 'duplicate' };
  }

  /**
   * The signature is checked before the start, so a forged delivery never holds a real one's key.
   * A forgery is recorded as rejected; its reason is returned.
   */
  private async rejectForgery(trigger: WebhookTrigger, req: DeliveryRequest, ids: ReceiverIds): Promise<string | null> {
    if (!trigger.verification) return null;
    const verdict = verifySender(trigger.verification, req);
    if (verdict.ok) return null;
    // Past REJECTED_PER_MINUTE for this trigger, a forgery is answered 429 and not recorded.
    this.rejections.check(trigger.identifier);
    this.rejections.count(trigger.identifier);
    // Keyed by the body's digest: nothing of a forgery is parsed.
    const received = this.received(trigger, req, { ...ids, key: bodyKey(this.digestKey, req.body) }, false);
    await this.deps.deliveries.record(deliveryRecord(received, { outcome: 'rejected', reason: verdict.reason }));
    return verdict.reason;
  }

  /**
   * A verified handshake, throttled like a refusal (past REJECTED_PER_MINUTE for its URL: 429, not
   * recorded) and keyed by its body's digest: the same one sent again within SIGNED_REPLAY_WINDOW_MS
   * (a capture replayed) is answered but not recorded again.
   */
  private async recordHandshake(trigger: WebhookTrigger, req: DeliveryRequest, ids: ReceiverIds): Promise<void> {
    this.rejections.check(trigger.identifier);
    this.rejections.count(trigger.identifier);
    const key = bodyKey(this.digestKey, req.body);
    if (!this.handshakesSeen.take(`${trigger.identifier}:${key}`)) return;
    const received = this.received(trigger, req, { ...ids, key }, true);
    await this.deps.deliveries.record(deliveryRecord(received, { outcome: 'handshake' }));
  }

  /** A delivery the receiver answers itself (rejected, handshake, duplicate): no workflow of its own, no body kept. */
  private received(
    trigger: WebhookTrigger,
    req: DeliveryRequest,
    { deliveryId, key, headers }: { deliveryId: string; key: string; headers: Record<string, string> },
    verified: boolean | null,
  ): ReceivedDelivery {
    return {
      deliveryId,
      robotId: trigger.robotId,
      triggerIdentifier: trigger.identifier,
      workflowId: null,
      dedupKey: key,
      receivedAt: req.receivedAt,
      contentType: req.contentType,
      size: req.body.length,
      verified,
      headers,
    };
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
