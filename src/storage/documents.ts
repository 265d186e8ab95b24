/**
 * The stored documents' types (MongoDB through mongoose; the schemas are in ./models). Everything
 * stored works on real MongoDB and on FerretDB v1: no transactions, and sender-controlled JSON
 * (trigger data, step templates and outputs) is stored as JSON text, because FerretDB refuses keys
 * with `.` or a leading `$` and nested arrays in documents.
 */
import type { SenderName } from '../domain/senders/catalog';
import type { DedupChoice } from '../domain/dedup';
import {
  type BodyFormat,
  type DeliveryRecord,
  type RobotState,
  type RunOutcomeStatus,
  type StepDefinition,
  type StepStatus,
  type TriggerKind,
} from '../domain/types';

/** JSON text as a document keeps it: inline, or the number of chunks under the owner id. */
export type StoredJson = { json: string } | { chunks: number };

export interface AppDoc {
  _id: string;
  /** Its workspace (src/domain/workspaces.ts); since 0.10, older ones moved to `default` at start. */
  workspaceId: string;
  name: string;
  supportsInboundTrigger: boolean;
  bodyFormat: BodyFormat;
  /**
   * How senders sign (src/domain/senders/): the app's `verification` as JSON, AES-256-GCM
   * sealed with SECRETS_KEY; never returned.
   */
  verificationSealed?: string | null;
  /**
   * Since 0.8: the scheme of that verification, unsealed (a sender's name is no secret), so the
   * worker knows how the app's bodies are read (GitHub's and Slack's forms) without unsealing.
   */
  sender?: SenderName | null;
  /** What its deliveries are told apart by (src/domain/dedup.ts); absent: auto. */
  dedup?: DedupChoice | null;
  createdAt: Date;
}

export interface ConnectionDoc {
  _id: string;
  /** Its workspace (src/domain/workspaces.ts); since 0.10, older ones moved to `default` at start. */
  workspaceId: string;
  provider: 'stripe';
  name: string;
  signingSecretSealed: string | null;
  /** The event types its new robots start with (absent: none chosen). */
  events?: string[];
  createdAt: Date;
}

/** A secret a sender gave in a handshake (src/robots/handshake-secrets.ts): sealed, never shown. */
export interface HandshakeSecretDoc {
  /** Sealed with SECRETS_KEY. */
  sealed: string;
  /** `sha256:` and 16 hex digits: how people tell secrets apart. */
  fingerprint: string;
  receivedAt: Date;
  /** The client address the handshake came from. */
  address: string;
  /** When an editor confirmed it (the URL's confirmed secret only). */
  confirmedAt?: Date;
}

export interface RobotDoc {
  _id: string;
  /** Its workspace (src/domain/workspaces.ts); since 0.10, older ones moved to `default` at start. */
  workspaceId: string;
  name: string;
  state: RobotState;
  trigger: {
    kind: TriggerKind;
    appId: string | null;
    connectionId: string | null;
    events?: string[];
    identifier: string | null;
    /** Only in robots put to work before tokens were hashed; sealed at start (src/robots/trigger-tokens.ts). */
    token?: string | null;
    /** SHA-256 (hex) of the URL's token: the receiver compares hashes. */
    tokenHash?: string | null;
    /** The token sealed with SECRETS_KEY, for the card's URL. */
    tokenSealed?: string | null;
    /** The token before the last rotation, still accepted until `previousTokenExpiresAt`. */
    previousTokenHash?: string | null;
    previousTokenExpiresAt?: Date | null;
    /** The secret its sender gave in a handshake, confirmed by an editor (src/robots/handshake-secrets.ts). */
    handshakeSecret?: HandshakeSecretDoc | null;
    /** Secrets given in handshakes waiting for an editor's confirmation, oldest first. */
    pendingHandshakeSecrets?: HandshakeSecretDoc[];
  };
  steps: StepDefinition[];
  /** Version of `steps` and `rulesJson`: 0 until first edited; each edit stores the versions (RobotStepsDoc). */
  stepsVersion?: number;
  /** The trigger rules (TriggerRules of src/domain/trigger-rules.ts) as JSON text, or null for none. */
  rulesJson?: string | null;
  /** When the robot was first paused since its held deliveries were last released (src/deliveries/hold.ts). */
  heldSince?: Date | null;
  createdAt: Date;
}

/** One version of a robot's steps, never changed; `_id` is `<robotId>:<version>`. */
export interface RobotStepsDoc {
  _id: string;
  robotId: string;
  version: number;
  steps: StepDefinition[];
  /** The trigger rules of this version as JSON text (null or absent: none). */
  rulesJson?: string | null;
  createdAt: Date;
}

/** A replay's number claimed by insert; `_id` is `<original delivery id>:<n>`. */
export interface ReplayClaimDoc {
  _id: string;
  at: Date;
}

/**
 * `body_refs`: a replay's reference to a kept body, `ref:<body>:<n>`, or a delivery gone from it,
 * `gone:<body>:<delivery>` (src/storage/body-refs.ts).
 */
export interface BodyRefDoc {
  _id: string;
  deliveryId: string;
  at: Date;
}

/**
 * `fanout_quota`: an entry of a URL's hour, `<trigger>:<hour>:<n>` (n from 1, claimed by insert),
 * holding the rows counted so far in that hour; or a delivery's mark that its rows were counted,
 * `counted:<delivery id>` (src/deliveries/fanout-quota.ts).
 */
export interface FanOutQuotaDoc {
  _id: string;
  rows: number;
  at: Date;
}

export interface DeliveryDoc extends DeliveryRecord {
  /** The delivery's place in its robot's history (src/history/slots.ts). */
  slot: number;
}

/** A run as it starts: what triggered it. Never changed after it is written. */
export interface RunDoc {
  _id: string;
  robotId: string;
  deliveryId: string;
  index: number;
  /** The trigger data as JSON text (large data in blob chunks under triggerBlobId). */
  trigger: StoredJson;
  verified: boolean | null;
  createdAt: Date;
  /** A run of a test delivery. */
  test?: true;
}

/** The result of one step of a run; `_id` is `<runId>:<step index>`. */
export interface StepResultDoc {
  _id: string;
  runId: string;
  index: number;
  name: string;
  status: Exclude<StepStatus, 'pending'>;
  /** The output as JSON text (large output in blob chunks under outputBlobId), when it succeeded. */
  output?: StoredJson;
  error?: string;
}

/** The result of the step that ended a run, kept on its outcome (since 0.5: one insert instead of two). */
export type EndingStep = Omit<StepResultDoc, '_id' | 'runId'>;

/**
 * How a run ended; `_id` is the run's id. A run without one is still running. The step that ended
 * it (the last, or one that failed) is on it, not in `step_results` (runs ended before 0.5: there).
 */
export interface RunOutcomeDoc {
  _id: string;
  robotId: string;
  status: RunOutcomeStatus;
  finishedAt: Date;
  endingStep?: EndingStep;
}

/** One chunk of a blob (./blobs); `_id` is `<owner id>:<n>`. */
export interface BlobChunkDoc {
  _id: string;
  ownerId: string;
  n: number;
  data: Buffer;
}

/**
 * A stored body whose delivery's start failed without a clear answer (src/deliveries/body-sweep.ts):
 * the workflow may or may not exist. `_id` is the delivery's id.
 */
export interface UnconfirmedBodyDoc {
  _id: string;
  workflowId: string;
  chunks: number;
  at: Date;
}

/** `trigger_changes/all`: a value every receiver changes when it changes a trigger (src/receiver/trigger-cache.ts). */
export interface TriggerChangeDoc {
  _id: string;
  stamp: string;
}
