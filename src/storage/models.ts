/**
 * Stored documents (MongoDB through mongoose): the schemas of documents.ts, history-documents.ts
 * and workspace-documents.ts, in the shape both real MongoDB and FerretDB v1 store (documents.ts).
 *
 * What a run writes is insert-only, with ids computed from what it is (the FerretDB rule,
 * by-id.ts): an insert costs the same however large the collection is. So a run is its stored
 * document (written once, when the delivery is prepared), a step result per step before the last
 * and one outcome carrying the last; a retried activity meets a duplicate key and leaves the
 * first write as it is.
 */
import { DEDUP_KEYS } from '../domain/dedup';
import { Schema, type Connection } from 'mongoose';
import { historyModels } from './history-documents';
import { issueModels } from './issue-documents';
import { workspaceModels } from './workspace-documents';
import { notificationModels } from './notification-documents';
import { BODY_FORMATS, DELIVERY_OUTCOMES, ROBOT_STATES, type StepDefinition } from '../domain/types';
import type {
  AppDoc,
  BlobChunkDoc,
  ConnectionDoc,
  DeliveryDoc,
  ReplayClaimDoc,
  FanOutQuotaDoc,
  HandshakeSecretDoc,
  BodyRefDoc,
  RobotDoc,
  RobotStepsDoc,
  RunDoc,
  RunOutcomeDoc,
  StepResultDoc,
  UnconfirmedBodyDoc,
  TriggerChangeDoc,
} from './documents';

const opts = { versionKey: false as const, _id: false as const };

const appSchema = new Schema<AppDoc>(
  {
    _id: { type: String, required: true },
    workspaceId: { type: String, required: true },
    name: { type: String, required: true },
    supportsInboundTrigger: { type: Boolean, required: true },
    bodyFormat: { type: String, enum: BODY_FORMATS, required: true },
    /** AES-256-GCM sealed with SECRETS_KEY; never returned by any route. */
    verificationSealed: { type: String, default: null },
    sender: { type: String, default: null },
    dedup: {
      type: new Schema(
        {
          key: { type: String, enum: DEDUP_KEYS, required: true },
          header: String,
          path: String,
          windowSeconds: Number,
        },
        opts,
      ),
      default: null,
    },
    createdAt: { type: Date, required: true },
  },
  { ...opts, collection: 'apps' },
);

const connectionSchema = new Schema<ConnectionDoc>(
  {
    _id: { type: String, required: true },
    workspaceId: { type: String, required: true },
    provider: { type: String, enum: ['stripe'], required: true },
    name: { type: String, required: true },
    /** AES-256-GCM sealed with SECRETS_KEY; never returned by any route. */
    signingSecretSealed: { type: String, default: null },
    events: { type: [String], default: undefined },
    createdAt: { type: Date, required: true },
  },
  { ...opts, collection: 'connections' },
);

const stepDefinitionSchema = new Schema<StepDefinition>(
  {
    name: { type: String, required: true },
    type: { type: String, required: true },
    templateJson: { type: String, required: true },
  },
  opts,
);

const handshakeSecretSchema = new Schema<HandshakeSecretDoc>(
  { sealed: String, fingerprint: String, receivedAt: Date, address: String, confirmedAt: Date },
  opts,
);

const robotSchema = new Schema<RobotDoc>(
  {
    _id: { type: String, required: true },
    workspaceId: { type: String, required: true },
    name: { type: String, required: true },
    state: { type: String, enum: ROBOT_STATES, required: true },
    trigger: {
      kind: { type: String, enum: ['custom', 'stripe'], required: true },
      appId: { type: String, default: null },
      connectionId: { type: String, default: null },
      events: { type: [String], default: undefined },
      /** `custom:<uuid>` or `stripe:<uuid>`; set when the robot is first put to work. */
      identifier: { type: String, default: null },
      token: { type: String, default: undefined },
      tokenHash: { type: String, default: null },
      tokenSealed: { type: String, default: null },
      previousTokenHash: { type: String, default: null },
      previousTokenExpiresAt: { type: Date, default: null },
      handshakeSecret: { type: handshakeSecretSchema, default: undefined },
      pendingHandshakeSecrets: { type: [handshakeSecretSchema], default: undefined },
    },
    steps: { type: [stepDefinitionSchema], required: true },
    stepsVersion: { type: Number, default: 0 },
    rulesJson: { type: String, default: null },
    heldSince: { type: Date, default: null },
    createdAt: { type: Date, required: true },
  },
  { ...opts, collection: 'robots' },
);
robotSchema.index({ 'trigger.identifier': 1 });

const deliverySchema = new Schema<DeliveryDoc>(
  {
    _id: { type: String, required: true },
    robotId: { type: String, required: true },
    triggerIdentifier: { type: String, required: true },
    workflowId: { type: String, default: null },
    dedupKey: { type: String, required: true },
    receivedAt: { type: Date, required: true },
    format: { type: String, required: true },
    contentType: { type: String, default: null },
    size: { type: Number, required: true },
    outcome: { type: String, enum: DELIVERY_OUTCOMES, required: true },
    runCount: { type: Number, default: 0 },
    reason: { type: String, default: null },
    error: { type: String, default: null },
    verified: { type: Boolean, default: null },
    slot: { type: Number, required: true },
    stepCount: { type: Number, default: 0 },
    previewsJson: { type: String, default: '[]' },
    stepsVersion: { type: Number, default: undefined },
    body: { type: new Schema({ ownerId: String, chunks: Number }, opts), default: null },
    headersJson: { type: String, default: '{}' },
    replayOf: { type: String, default: null },
    fieldsJson: { type: String, default: undefined },
    test: { type: Boolean, default: undefined },
    filteredRows: { type: Number, default: undefined },
    requestJson: { type: String, default: undefined },
    event: { type: String, default: undefined },
    bodyKeptBytes: { type: Number, default: undefined },
    duplicateOf: { type: String, default: undefined },
    answered: { type: Number, default: undefined },
  },
  { ...opts, collection: 'deliveries' },
);

const robotStepsSchema = new Schema<RobotStepsDoc>(
  {
    _id: { type: String, required: true },
    robotId: { type: String, required: true },
    version: { type: Number, required: true },
    steps: { type: [stepDefinitionSchema], required: true },
    rulesJson: { type: String, default: null },
    createdAt: { type: Date, required: true },
  },
  { ...opts, collection: 'robot_steps' },
);

const replayClaimSchema = new Schema<ReplayClaimDoc>(
  { _id: { type: String, required: true }, at: { type: Date, required: true } },
  { ...opts, collection: 'replay_claims' },
);

const bodyRefSchema = new Schema<BodyRefDoc>(
  {
    _id: { type: String, required: true },
    deliveryId: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { ...opts, collection: 'body_refs' },
);

const fanOutQuotaSchema = new Schema<FanOutQuotaDoc>(
  { _id: { type: String, required: true }, rows: { type: Number, required: true }, at: { type: Date, required: true } },
  { ...opts, collection: 'fanout_quota' },
);

const storedJsonSchema = new Schema<{ json?: string; chunks?: number }>(
  { json: { type: String, default: undefined }, chunks: { type: Number, default: undefined } },
  opts,
);

const runSchema = new Schema<RunDoc>(
  {
    _id: { type: String, required: true },
    robotId: { type: String, required: true },
    deliveryId: { type: String, required: true },
    index: { type: Number, required: true },
    trigger: { type: storedJsonSchema, required: true },
    verified: { type: Boolean, default: null },
    createdAt: { type: Date, required: true },
    test: { type: Boolean, default: undefined },
  },
  { ...opts, collection: 'runs' },
);

const stepResultSchema = new Schema<StepResultDoc>(
  {
    _id: { type: String, required: true },
    runId: { type: String, required: true },
    index: { type: Number, required: true },
    name: { type: String, required: true },
    status: { type: String, enum: ['succeeded', 'failed'], required: true },
    output: { type: storedJsonSchema, default: undefined },
    error: { type: String, default: undefined },
  },
  { ...opts, collection: 'step_results' },
);

const runOutcomeSchema = new Schema<RunOutcomeDoc>(
  {
    _id: { type: String, required: true },
    robotId: { type: String, required: true },
    status: { type: String, enum: ['succeeded', 'failed'], required: true },
    finishedAt: { type: Date, required: true },
    endingStep: {
      type: new Schema(
        {
          index: { type: Number, required: true },
          name: { type: String, required: true },
          status: { type: String, enum: ['succeeded', 'failed'], required: true },
          output: { type: storedJsonSchema, default: undefined },
          error: { type: String, default: undefined },
        },
        opts,
      ),
      default: undefined,
    },
  },
  { ...opts, collection: 'run_outcomes' },
);

const blobChunkSchema = new Schema<BlobChunkDoc>(
  {
    _id: { type: String, required: true },
    ownerId: { type: String, required: true },
    n: { type: Number, required: true },
    data: { type: Buffer, required: true },
  },
  { ...opts, collection: 'blob_chunks' },
);

const unconfirmedBodySchema = new Schema<UnconfirmedBodyDoc>(
  {
    _id: { type: String, required: true },
    workflowId: { type: String, required: true },
    chunks: { type: Number, required: true },
    at: { type: Date, required: true },
  },
  { ...opts, collection: 'unconfirmed_bodies' },
);

const triggerChangeSchema = new Schema<TriggerChangeDoc>(
  { _id: { type: String, required: true }, stamp: { type: String, required: true } },
  { ...opts, collection: 'trigger_changes' },
);

export function createModels(db: Connection) {
  return {
    App: db.model<AppDoc>('App', appSchema),
    Connection: db.model<ConnectionDoc>('Connection', connectionSchema),
    Robot: db.model<RobotDoc>('Robot', robotSchema),
    RobotSteps: db.model<RobotStepsDoc>('RobotSteps', robotStepsSchema),
    ReplayClaim: db.model<ReplayClaimDoc>('ReplayClaim', replayClaimSchema),
    FanOutQuota: db.model<FanOutQuotaDoc>('FanOutQuota', fanOutQuotaSchema),
    BodyRef: db.model<BodyRefDoc>('BodyRef', bodyRefSchema),
    Delivery: db.model<DeliveryDoc>('Delivery', deliverySchema),
    Run: db.model<RunDoc>('Run', runSchema),
    StepResult: db.model<StepResultDoc>('StepResult', stepResultSchema),
    RunOutcome: db.model<RunOutcomeDoc>('RunOutcome', runOutcomeSchema),
    BlobChunk: db.model<BlobChunkDoc>('BlobChunk', blobChunkSchema),
    UnconfirmedBody: db.model<UnconfirmedBodyDoc>('UnconfirmedBody', unconfirmedBodySchema),
    ...historyModels(db),
    TriggerChange: db.model<TriggerChangeDoc>('TriggerChange', triggerChangeSchema),
    ...workspaceModels(db),
    ...issueModels(db),
    ...notificationModels(db),
  };
}
export type Models = ReturnType<typeof createModels>;
