/**
 * What the receiver records itself of the deliveries it answers without a workflow (the rules:
 * src/domain/deliveries.ts): refused ones (a signature, a handshake's check, a wrong or old token),
 * handshakes and repeats. Each keeps its request for the delivery inspector (src/domain/inspection.ts)
 * and the status its sender was answered; a refused one and a handshake their body's first
 * REFUSED_BODY_KEPT_BYTES. Refusals and handshakes are recorded within REJECTED_PER_MINUTE per URL
 * (past it: 429, nothing kept), repeats within DUPLICATES_LOGGED_PER_MINUTE; each is keyed by the
 * digest of its bytes: nothing of a refused body is parsed. A refusal counts in its robot's issue
 * once recorded (src/domain/issues.ts: by the check's reason; a refused handshake as `handshake`), and
 * one past the throttle, recorded nowhere, in its robot's `throttled` issue.
 */
import type { Config } from '../core/config';
import type { Logger } from '../core/log';
import { Throttle } from '../core/throttle';
import { bodyKey, SIGNED_REPLAY_WINDOW_MS } from '../domain/dedup';
import { deliveryRecord, keptHeaders, type ReceivedDelivery } from '../domain/deliveries';
import { captureRequest, eventName } from '../domain/inspection';
import { DUPLICATES_LOGGED_PER_MINUTE, REFUSED_BODY_KEPT_BYTES, THROTTLE_ENTRIES } from '../domain/limits';
import { newId } from '../domain/secrets';
import { credentialHeaders, headersRead } from '../domain/senders/checks';
import type { RequestCapture } from '../domain/types';
import type { DeliveryRecorder } from '../history/slots';
import { refusedReason } from '../domain/issues';
import type { IssueCounter } from '../issues/counter';
import { bodyBlobId, storeBlob } from '../storage/blobs';
import type { Models } from '../storage/models';
import { handshakeBytes, type DeliveryRequest } from './request';
import type { WebhookTrigger } from './webhook-trigger';

/** A delivery as it arrives: its id, the headers kept with it (replay, rules) and its request (the inspector). */
export type Arrived = { deliveryId: string; headers: Record<string, string>; inspected: RequestCapture };

/** The reason a request with a token that is not its URL's is recorded with (`wrongToken`). */
export const WRONG_TOKEN = 'wrong or old token';

/** A public URL's path and query (BASE_URL's origin left out). */
function pathAndQueryOf(publicUrl: string): string {
  const url = new URL(publicUrl);
  return url.pathname + url.search;
}

export interface ReceiverRecordsDeps {
  config: Config;
  models: Models;
  deliveries: DeliveryRecorder;
  log: Logger;
  /** The process's issue counter: for the throttled, which nothing records (none: not counted). */
  issues?: IssueCounter;
}

export class ReceiverRecords {
  /** Rejected deliveries and handshakes recorded per trigger this minute (src/core/throttle.ts). */
  readonly rejections: Throttle;
  /** Duplicates recorded per trigger this minute (DUPLICATES_LOGGED_PER_MINUTE). */
  readonly duplicates = new Throttle('duplicates logged for this URL', DUPLICATES_LOGGED_PER_MINUTE);
  /**
   * Handshakes recorded, by trigger and body digest, for as long as a signed capture verifies
   * (SIGNED_REPLAY_WINDOW_MS): one sent again is answered, but recorded once.
   */
  private readonly handshakesSeen = new Throttle('handshakes', 1, THROTTLE_ENTRIES, SIGNED_REPLAY_WINDOW_MS);

  constructor(
    private readonly deps: ReceiverRecordsDeps,
    /** Keys the digests in dedup keys (src/domain/dedup.ts). */
    private readonly digestKey: Buffer,
  ) {
    this.rejections = new Throttle(
      'refused deliveries and handshakes for this URL',
      deps.config.throttles.rejectedPerMinute,
    );
  }

  /**
   * A delivery as it arrives: a new id, the headers its app's sender and its robot's trigger rules
   * read (never a credential one), and its request with its credentials masked.
   */
  arrived(trigger: WebhookTrigger, req: DeliveryRequest): Arrived {
    const sender = trigger.verification && trigger.verification.scheme !== 'stripe' ? trigger.verification : null;
    const read = [...(sender ? headersRead(sender) : []), ...trigger.ruleHeaders];
    const credentials = sender ? credentialHeaders(sender) : [];
    const inspected = captureRequest({ ...req, pathAndQuery: pathAndQueryOf(req.publicUrl) }, credentials);
    return { deliveryId: newId(), headers: keptHeaders(req.headers, read, credentials), inspected };
  }

  /**
   * A refused request (a refused handshake when `kind` says so), recorded as rejected with its reason
   * and status, and counted in its issue; past REJECTED_PER_MINUTE: 429, none.
   */
  async refusal(
    trigger: WebhookTrigger,
    req: DeliveryRequest,
    ids: Arrived,
    reason: string,
    status: number,
    kind: 'refused' | 'handshake' = 'refused',
  ) {
    this.admit(trigger);
    this.rejections.count(trigger.identifier);
    const received = await this.received(trigger, req, ids, false, status, true);
    const issue = { workspaceId: trigger.workspaceId, kind, reason: kind === 'refused' ? refusedReason(reason) : kind };
    await this.deps.deliveries.record(deliveryRecord(received, { outcome: 'rejected', reason }), { issue });
  }

  /**
   * Throws the URL's refusal throttle's 429 past REJECTED_PER_MINUTE, counting it in the robot's
   * `throttled` issue (nothing else of it is kept).
   */
  admit(trigger: WebhookTrigger): void {
    try {
      this.rejections.check(trigger.identifier);
    } catch (err) {
      this.throttled(trigger);
      throw err;
    }
  }

  private throttled({ robotId, workspaceId }: WebhookTrigger): void {
    this.deps.issues?.hit({ robotId, workspaceId, kind: 'refused', reason: 'throttled', at: new Date() });
  }

  /**
   * A request to this trigger's identifier with a token that is not its own (a typo, one rotated out
   * whose grace has ended): recorded as rejected, WRONG_TOKEN, within the URL's refusals this minute
   * and past them not at all, so a stranger guessing tokens fills nothing. Its sender is answered as
   * for an unknown URL (404) whatever this does; its body is not read.
   */
  async wrongToken(trigger: WebhookTrigger, req: DeliveryRequest): Promise<void> {
    if (!this.rejections.take(trigger.identifier)) return this.throttled(trigger);
    const received = await this.received(trigger, req, this.arrived(trigger, req), false, 404, false);
    const issue = { workspaceId: trigger.workspaceId, kind: 'refused' as const, reason: 'wrong_token' };
    await this.deps.deliveries.record(deliveryRecord(received, { outcome: 'rejected', reason: WRONG_TOKEN }), {
      issue,
    });
  }

  /**
   * A handshake answered, throttled like a refusal (past REJECTED_PER_MINUTE for its URL: 429, not
   * recorded) and keyed by its body's digest: the same one sent again within SIGNED_REPLAY_WINDOW_MS
   * (a capture replayed) is answered but not recorded again.
   */
  async handshake(trigger: WebhookTrigger, req: DeliveryRequest, ids: Arrived, verified: true | null, status: number) {
    this.admit(trigger);
    this.rejections.count(trigger.identifier);
    const key = bodyKey(this.digestKey, handshakeBytes(req));
    if (!this.handshakesSeen.take(`${trigger.identifier}:${key}`)) return;
    const received = await this.received(trigger, req, ids, verified, status, true);
    await this.deps.deliveries.record(deliveryRecord(received, { outcome: 'handshake' }));
  }

  /**
   * A repeat the engine refused, recorded with the delivery it repeats, a few a minute per URL at most;
   * it was refused already, so a record that fails is logged and its sender still gets its answer.
   */
  async duplicate(
    trigger: WebhookTrigger,
    req: DeliveryRequest,
    repeat: Arrived & { key: string; workflowId: string; verified: boolean | null; status: number },
    duplicateOf: string | null,
  ): Promise<void> {
    if (!this.duplicates.take(trigger.identifier)) return;
    const received = await this.received(trigger, req, repeat, repeat.verified, repeat.status, false);
    const record = deliveryRecord(
      { ...received, dedupKey: repeat.key, workflowId: repeat.workflowId },
      { outcome: 'duplicate', duplicateOf },
    );
    await this.deps.deliveries.record(record).catch((err: Error) =>
      this.deps.log.warn('a duplicate could not be recorded in the deliveries log', {
        deliveryId: repeat.deliveryId,
        robotId: trigger.robotId,
        err,
      }),
    );
  }

  /** What is known of it: keyed by its bytes' digest; its body's first REFUSED_BODY_KEPT_BYTES kept when `keep`. */
  private async received(
    trigger: WebhookTrigger,
    req: DeliveryRequest,
    { deliveryId, headers, inspected }: Arrived,
    verified: boolean | null,
    answered: number,
    keep: boolean,
  ): Promise<ReceivedDelivery> {
    return {
      deliveryId,
      robotId: trigger.robotId,
      triggerIdentifier: trigger.identifier,
      workflowId: null,
      dedupKey: bodyKey(this.digestKey, handshakeBytes(req)),
      receivedAt: req.receivedAt,
      contentType: req.contentType,
      size: req.body.length,
      verified,
      headers,
      request: inspected,
      event: eventName(inspected.headers),
      answered,
      ...(keep ? await this.keepBody(deliveryId, req.body) : {}),
    };
  }

  /** A body kept for the inspector up to REFUSED_BODY_KEPT_BYTES, where replay and retention find any delivery's. */
  private async keepBody(deliveryId: string, bytes: Buffer): Promise<Pick<ReceivedDelivery, 'body' | 'bodyKeptBytes'>> {
    if (bytes.length === 0) return {};
    const kept = bytes.subarray(0, REFUSED_BODY_KEPT_BYTES);
    const ownerId = bodyBlobId(deliveryId);
    const body = { ownerId, chunks: await storeBlob(this.deps.models, ownerId, kept) };
    return kept.length < bytes.length ? { body, bodyKeptBytes: kept.length } : { body };
  }
}
