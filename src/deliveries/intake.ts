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
import { bodyKey, dedupOf, SIGNED_REPLAY_WINDOW_MS } from '../domain/dedup';
import { deliveryWorkflowId } from '../domain/ids';
import { DUPLICATES_LOGGED_PER_MINUTE, REFUSED_BODY_KEPT_BYTES, THROTTLE_ENTRIES } from '../domain/limits';
import { deliveryRecord, isEmptyBody, keptHeaders, type ReceivedDelivery } from '../domain/deliveries';
import { derivedKey, newId } from '../domain/secrets';
import { credentialHeaders, headersRead, senderDeliveryId, senderHandshake } from '../domain/senders/checks';
import type { Handshake, HandshakeAnswer, SenderRequest } from '../domain/senders/parts';
import { handshakeBytes, senderRequest, verifyRequest, type DeliveryRequest } from './request';
import { readsFormEnvelope, SENDERS } from '../domain/senders/catalog';
import type { RefusalStatus } from '../domain/senders/catalog/sender';
import { secretFingerprint, type Offered } from '../robots/handshake-secrets';
import { deliveryInput } from './input';
import { startDelivery } from './start';
import type { DeliveryRecorder } from '../history/slots';
import type { Logger } from '../core/log';
import type { Models } from '../storage/models';
import { Throttle } from '../core/throttle';
import { captureRequest, eventName } from '../domain/inspection';
import type { RequestCapture } from '../domain/types';
import { bodyBlobId, storeBlob } from '../storage/blobs';
import type { WebhookTrigger } from './webhook-trigger';

interface TakeDeliveryDeps {
  config: Config;
  models: Models;
  temporal: Client;
  deliveries: DeliveryRecorder;
  log: Logger;
  /**
   * Keeps a secret the sender gave in a handshake, sealed and pending on the trigger's URL, and
   * records a new one in the audit log; what it became. The answer waits for it.
   */
  offerSecret(trigger: WebhookTrigger, secret: string, from: { address: string; at: Date }): Promise<Offered | null>;
}

/** A delivery the receiver answers itself is known by its id, the headers kept with it and its request. */
type ReceiverIds = { deliveryId: string; headers: Record<string, string>; inspected: RequestCapture };

/** A public URL's path and query (BASE_URL's origin left out). */
const pathAndQueryOf = (publicUrl: string): string => {
  const url = new URL(publicUrl);
  return url.pathname + url.search;
};

/** The reason a request with a token that is not its URL's is recorded with (`refuseToken`). */
export const WRONG_TOKEN = 'wrong or old token';

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
    const { verification } = trigger;
    const sender = verification && verification.scheme !== 'stripe' ? verification : null;
    const signedWith = verification?.scheme ?? null;
    const deliveryId = newId();
    // What the log lines about it carry (src/core/log.ts), its workflow once known.
    const known = { deliveryId, robotId: trigger.robotId, workspaceId: trigger.workspaceId };
    // Those its app's sender and its robot's trigger rules read are kept too.
    const read = [...(sender ? headersRead(sender) : []), ...trigger.ruleHeaders];
    const credentials = sender ? credentialHeaders(sender) : [];
    const headers = keptHeaders(req.headers, read, credentials);
    const inspected = captureRequest({ ...req, pathAndQuery: pathAndQueryOf(req.publicUrl) }, credentials);
    const ids = { deliveryId, headers, inspected };
    const request = sender && senderRequest(req);
    const unsigned = sender && request && senderHandshake(sender, request, false);
    if (unsigned) {
      identified(known);
      return this.handshake(trigger, req, ids, unsigned, null);
    }
    if (req.method !== 'POST' && req.method !== 'PUT') return { outcome: 'not-a-handshake' };
    if (isEmptyBody(req.body.length)) return { outcome: 'empty' };
    // Checked before anything parses the body: a forgery is keyed by its digest.
    const forged = await this.rejectForgery(trigger, req, ids, request);
    if (forged) {
      identified(known);
      return { outcome: 'rejected', reason: forged, status: sender ? SENDERS[sender.scheme].refusalStatus : 400 };
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
    const lookUpOriginal = this.duplicates.within(trigger.identifier);
    const started = await startDelivery(this.deps, input, workflowId, { windowMs, lookUpOriginal });
    if (started.started) return { outcome: 'accepted' };
    // A repeat: recorded with the delivery it repeats, a few a minute per URL at most.
    if (this.duplicates.take(trigger.identifier)) {
      const received = { ...this.received(trigger, req, { ...ids, key }, verified), workflowId };
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
   * A request to this trigger's identifier with a token that is not its own (a typo, one rotated out
   * whose grace has ended): recorded as rejected, WRONG_TOKEN, within the URL's refusals this minute
   * (REJECTED_PER_MINUTE, the throttle forgeries count in) and past them not at all, so a stranger
   * guessing tokens fills nothing. Its sender is answered as for an unknown URL whatever this does;
   * its body is not read.
   */
  async refuseToken(trigger: WebhookTrigger, req: DeliveryRequest): Promise<void> {
    if (!this.rejections.take(trigger.identifier)) return;
    const sender = trigger.verification && trigger.verification.scheme !== 'stripe' ? trigger.verification : null;
    const read = [...(sender ? headersRead(sender) : []), ...trigger.ruleHeaders];
    const credentials = sender ? credentialHeaders(sender) : [];
    const inspected = captureRequest({ ...req, pathAndQuery: pathAndQueryOf(req.publicUrl) }, credentials);
    const ids = { deliveryId: newId(), headers: keptHeaders(req.headers, read, credentials), inspected };
    const received = this.received(trigger, req, { ...ids, key: bodyKey(this.digestKey, handshakeBytes(req)) }, false);
    await this.deps.deliveries.record(deliveryRecord(received, { outcome: 'rejected', reason: WRONG_TOKEN }));
  }

  /**
   * The signature is checked before the start, so a forged delivery never holds a real one's key.
   * A forgery is recorded as rejected; its reason is returned.
   */
  private async rejectForgery(
    trigger: WebhookTrigger,
    req: DeliveryRequest,
    ids: ReceiverIds,
    request: SenderRequest | null,
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
    await this.recordRefusal(trigger, req, ids, reason);
    return reason;
  }

  /**
   * A refused request, recorded as rejected with its reason; past REJECTED_PER_MINUTE for its
   * trigger it is answered 429 and not recorded. Keyed by the digest of its bytes: nothing of it is parsed.
   */
  private async recordRefusal(trigger: WebhookTrigger, req: DeliveryRequest, ids: ReceiverIds, reason: string) {
    this.rejections.check(trigger.identifier);
    this.rejections.count(trigger.identifier);
    const received = this.received(trigger, req, { ...ids, key: bodyKey(this.digestKey, handshakeBytes(req)) }, false);
    const body = await this.keepBody(ids.deliveryId, req.body);
    await this.deps.deliveries.record(deliveryRecord({ ...received, ...body }, { outcome: 'rejected', reason }));
  }

  /**
   * A handshake: refused (recorded as rejected), or answered once a secret it gave is kept, and
   * recorded; a note (Twitch's revocation) is logged.
   */
  private async handshake(
    trigger: WebhookTrigger,
    req: DeliveryRequest,
    ids: ReceiverIds,
    h: Handshake,
    verified: true | null,
  ): Promise<Taken> {
    const robotId = trigger.robotId;
    if ('refused' in h) {
      await this.recordRefusal(trigger, req, ids, h.refused);
      return { outcome: 'rejected', reason: h.refused, status: h.status };
    }
    // Throttled before anything is kept: a handshake answered 429 has changed nothing.
    this.rejections.check(trigger.identifier);
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
    await this.recordHandshake(trigger, req, ids, verified);
    return { outcome: 'handshake', answer: h.answer };
  }

  /**
   * A verified handshake, throttled like a refusal (past REJECTED_PER_MINUTE for its URL: 429, not
   * recorded) and keyed by its body's digest: the same one sent again within SIGNED_REPLAY_WINDOW_MS
   * (a capture replayed) is answered but not recorded again.
   */
  private async recordHandshake(
    trigger: WebhookTrigger,
    req: DeliveryRequest,
    ids: ReceiverIds,
    verified: true | null,
  ): Promise<void> {
    this.rejections.check(trigger.identifier);
    this.rejections.count(trigger.identifier);
    const key = bodyKey(this.digestKey, handshakeBytes(req));
    if (!this.handshakesSeen.take(`${trigger.identifier}:${key}`)) return;
    const received = this.received(trigger, req, { ...ids, key }, verified);
    const body = await this.keepBody(ids.deliveryId, req.body);
    await this.deps.deliveries.record(deliveryRecord({ ...received, ...body }, { outcome: 'handshake' }));
  }

  /**
   * A body the receiver answers itself, kept for the inspector up to REFUSED_BODY_KEPT_BYTES (its
   * recording is throttled before this), where replay and retention find any delivery's body.
   */
  private async keepBody(deliveryId: string, bytes: Buffer): Promise<Pick<ReceivedDelivery, 'body' | 'bodyKeptBytes'>> {
    if (bytes.length === 0) return {};
    const kept = bytes.subarray(0, REFUSED_BODY_KEPT_BYTES);
    const ownerId = bodyBlobId(deliveryId);
    const body = { ownerId, chunks: await storeBlob(this.deps.models, ownerId, kept) };
    return kept.length < bytes.length ? { body, bodyKeptBytes: kept.length } : { body };
  }

  /** A delivery the receiver answers itself (rejected, handshake, duplicate): no workflow of its own. */
  private received(
    trigger: WebhookTrigger,
    req: DeliveryRequest,
    { deliveryId, key, headers, inspected }: ReceiverIds & { key: string },
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
      request: inspected,
      event: eventName(inspected.headers),
    };
  }
}
