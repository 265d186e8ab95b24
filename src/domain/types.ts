/**
 * The data that crosses boundaries: workflow and activity inputs, stored shapes, API views.
 * It imports nothing, so workflow code may import it (its types and its few constants).
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export const BODY_FORMATS = ['json', 'xml', 'csv', 'text', 'form'] as const;
/** How a trigger's request bodies are parsed, set on the custom app ("plain text" is `text`). */
export type BodyFormat = (typeof BODY_FORMATS)[number];

export type TriggerKind = 'custom' | 'stripe';
export const ROBOT_STATES = ['draft', 'at_work', 'paused', 'stopped'] as const;
/** draft: never put to work; at_work: runs what arrives; paused: keeps what arrives for later; stopped: 404. */
export type RobotState = (typeof ROBOT_STATES)[number];
export type RunStatus = 'running' | 'succeeded' | 'failed';
export type StepStatus = 'pending' | 'succeeded' | 'failed';
/**
 * What became of a delivery, as its robot's deliveries log says: processed (its runs were made),
 * dropped (nothing to run; before 0.6, a payment event of a type not selected), rejected (its
 * signature did not verify), failed (it could not be prepared), handshake (a sender's check of the
 * URL, answered as the sender expects: src/domain/senders/), filtered (stopped by the robot's
 * trigger rules or, for the payment provider, its events list: ./trigger-rules.ts), duplicate (a
 * repeat of an earlier delivery within its window: ./dedup.ts; since 0.6).
 */
export const DELIVERY_OUTCOMES = [
  'processed',
  'dropped',
  'rejected',
  'failed',
  'handshake',
  'filtered',
  'duplicate',
] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];
/** A delivery as its robot's history records it (stored with its place: src/storage/documents.ts). */
export interface DeliveryRecord {
  _id: string;
  robotId: string;
  triggerIdentifier: string;
  workflowId: string | null;
  dedupKey: string;
  receivedAt: Date;
  format: BodyFormat;
  contentType: string | null;
  size: number;
  outcome: DeliveryOutcome;
  runCount: number;
  reason: string | null;
  error: string | null;
  verified: boolean | null;
  /** Steps the robot had when the delivery was prepared: its runs' step results are `<runId>:<0…stepCount-1>`. */
  stepCount: number;
  /** Trigger previews of its first runs (the first page), as JSON text of `(string | null)[]`. */
  previewsJson: string;
  /** The version of the robot's steps its runs execute (src/robots/steps-versions.ts); absent before 0.4. */
  stepsVersion?: number;
  /** Where its raw body is kept for replay (a blob owner id and its chunk count), or null when it is not. */
  body?: { ownerId: string; chunks: number } | null;
  /** The request headers kept with it (verification and dedup headers), as JSON text of an object. */
  headersJson?: string;
  /** The delivery it replays, when it is a replay (POST /api/deliveries/:id/replay). */
  replayOf?: string | null;
  /** The paths its trigger data carried (DeliveryFields of ./fields) as JSON text; only when it was parsed. */
  fieldsJson?: string;
  /** Sent from the robot page or the API as a test (POST /api/robots/:id/test-delivery); its runs are real. */
  test?: true;
  /** A CSV's rows the trigger rules stopped (they made no run); absent when none. */
  filteredRows?: number;
  /** The request as the inspector shows it (RequestCapture of ./inspection.ts) as JSON text; since 0.12. */
  requestJson?: string;
  /** The sender's event name (./inspection.ts `eventName`), when it has one; since 0.12. */
  event?: string;
  /** The bytes of its body kept when fewer than its size (a refused body: REFUSED_BODY_KEPT_BYTES). */
  bodyKeptBytes?: number;
  /** A duplicate's original, when known; since 0.12 (before, only in `reason`). */
  duplicateOf?: string;
  /** The status its sender was answered when the receiver answered it itself (refused, handshake, repeat); 0.12. */
  answered?: number;
}

/** The failure type of a delivery workflow whose body does not parse in the app's body format. */
export const UNPARSABLE_BODY = 'UnparsableBody';
/** The failure type of a delivery workflow that would make more than a cap allows (DeliveryCaps). */
export const OVER_CAP = 'DeliveryOverCap';
/** The failure type of a delivery workflow whose stored body is gone (it can only fail, never succeed). */
export const BODY_NOT_KEPT = 'BodyNotKept';
/** Why a delivery failed: each is final (the workflow fails at once, and its ID is free again). */
export const DELIVERY_FAILURES = [UNPARSABLE_BODY, OVER_CAP, BODY_NOT_KEPT] as const;
export type DeliveryFailure = (typeof DELIVERY_FAILURES)[number];

/** A request as the delivery inspector shows it (made by ./inspection.ts `captureRequest`). */
export interface RequestCapture {
  method: string;
  /** The path and query as sent, the URL's token and credential parameters masked. */
  path: string;
  /** Every header in the order Node read them (lower-case names), credentials masked. */
  headers: Array<[name: string, value: string]>;
  /** Headers past INSPECTED_HEADERS_BYTES, counted, not kept. */
  headersLeftOut?: number;
}

/** A robot step as the run executes it: the template is kept as JSON text (see README, storage). */
export interface StepDefinition {
  name: string;
  type: 'compose';
  templateJson: string;
}

/**
 * The raw request body as the receiver got it. Small bodies travel inline in the workflow
 * input (as text when they are valid UTF-8, so operators can read them in the Web UI); larger
 * ones are stored in MongoDB before the workflow starts and only referenced.
 */
export type DeliveryBody =
  | { kind: 'inline'; encoding: 'utf8' | 'base64'; data: string }
  /** Stored in chunks under `ownerId` (a replay reads its original's), else under `body:<deliveryId>`. */
  | { kind: 'stored'; chunks: number; ownerId?: string };

/** Input of the delivery workflow; the receiver builds it. */
export interface DeliveryInput {
  deliveryId: string;
  robotId: string;
  /** Since 0.10: the robot's workspace (src/domain/workspaces.ts); absent before, which is `default`. */
  workspaceId?: string;
  triggerIdentifier: string;
  /** ISO time at which the receiver got the request. */
  receivedAt: string;
  /** Where the dedup key came from and its value; the workflow ID is derived from it. */
  dedupKey: string;
  contentType: string | null;
  size: number;
  body: DeliveryBody;
  /** Signature verdict for triggers that can be signed (payment provider); null for custom apps. */
  verified: boolean | null;
  /** The robot's name when the delivery was received, for summaries in the Temporal Web UI. */
  robotName?: string;
  /** Since 0.4: the app's body format and the robot's steps version when the delivery was accepted. */
  format?: BodyFormat;
  /** Since 0.8: a json body may come as a form too (src/robots/settings.ts, `BodyReading`). */
  formEnvelope?: true;
  stepsVersion?: number;
  /** Since 0.4: the request headers kept with the delivery (verification and dedup headers). */
  headers?: Record<string, string>;
  /** Since 0.4: the robot was paused when it arrived: it waits for the robot to be resumed. */
  held?: boolean;
  /** Since 0.4: the delivery this one replays. */
  replayOf?: string;
  /** Since 0.6: a test delivery, sent through the management API (src/deliveries/test-delivery.ts). */
  test?: true;
  /** Since 0.12: the request as the delivery inspector shows it (./inspection.ts); absent for a replay or a test. */
  request?: RequestCapture;
}

/**
 * A run's trigger data as its workflow gets it: inline when small (a CSV row, a typical
 * event), else left in the stored run and read by the step that needs it.
 */
export type TriggerRef = { kind: 'inline'; data: JsonValue } | { kind: 'stored' };

/** What the delivery workflow needs to start one run. */
export interface RunSeed {
  runId: string;
  trigger: TriggerRef;
  /** Size of the inline trigger data in bytes, so the workflow can bound its history. */
  bytes: number;
}

/** What preparing a delivery decided. `firstRuns` are the first runs to start. */
export type PreparedDelivery = (
  | {
      outcome: 'processed';
      runCount: number;
      stepCount: number;
      firstRuns: RunSeed[];
      /**
       * Since 0.12: the delivery's only run, executed by the activity that prepared it (one local
       * activity per one-run delivery; `firstRuns` is then empty). Absent: the workflow runs it.
       */
      runStatus?: RunOutcomeStatus;
    }
  | { outcome: 'dropped'; reason: string }
  /** Since 0.6: stopped by a trigger rule; no run. */
  | { outcome: 'filtered'; reason: string }
  /** `failure` since 0.5 (absent: UnparsableBody). */
  | { outcome: 'failed'; error: string; failure?: DeliveryFailure }
) & {
  /** The body format it was parsed in (absent in results recorded before it was added). */
  format?: BodyFormat;
  /** Since 0.8: a json body may come as a form too (src/robots/settings.ts, `BodyReading`). */
  formEnvelope?: true;
  /** How the worker that prepared it shows runs and keeps bodies, when one is off (absent: all on). */
  features?: RunFeatures;
};

/**
 * What a delivery's workflow does beyond running its runs, as the worker that prepared it was set
 * (RUN_SEARCH_ATTRIBUTES, RUN_SUMMARIES, KEEP_BODIES, FIELDS_SEEN; src/core/config.ts): decided once, in the prepare
 * activity's result, so a workflow replays the same whatever a worker's settings later.
 */
export interface RunFeatures {
  /** Each run of a fan-out carries the RobotId search attribute (src/domain/search-attributes.ts). */
  runSearchAttributes: boolean;
  /** Each run of a fan-out carries a summary (`Run 2 of 3 (csv row 2) for robot "Orders"`). */
  runSummaries: boolean;
  /** The raw body is kept for replay while the delivery is in the history. */
  keepBodies: boolean;
  /** The paths its trigger data carried are kept with the delivery (./fields.ts); absent before 0.6: on. */
  fieldsSeen?: boolean;
}

/** How a run ended. */
export type RunOutcomeStatus = Exclude<RunStatus, 'running'>;

/**
 * The result of a delivery workflow, shown to operators in the Web UI. `runStatus` is there when
 * the delivery's one run executed in the delivery workflow itself.
 */
export type DeliveryResult =
  | { outcome: 'processed'; runCount: number; runStatus?: RunOutcomeStatus }
  | { outcome: 'dropped' | 'filtered'; reason: string };

export interface RunInput {
  runId: string;
  robotId: string;
  trigger: TriggerRef;
  stepCount: number;
  /** The robot's steps version its delivery was accepted with (absent before 0.4: the robot's current steps). */
  stepsVersion?: number;
}
