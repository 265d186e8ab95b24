/**
 * The documents of workspaces (src/domain/workspaces.ts): the workspaces, their keys, their audit
 * logs and robots directories (src/workspaces/), and the marks of one-time migrations. Each is read
 * by an `_id` its reader computes (the FerretDB rule, ./by-id.ts); the audit log and the directory
 * are chains of inserts (./chains.ts).
 */
import { Schema, type Connection } from 'mongoose';
import { ROLES, type AuditActor, type AuditOutcome, type KeyMaker, type Role } from '../domain/workspaces';
import type { RobotState } from '../domain/types';

/** A workspace (src/domain/workspaces.ts); `default` holds what was made before workspaces. */
export interface WorkspaceDoc {
  _id: string;
  name: string;
  createdAt: Date;
}

/** A key of a workspace (src/workspaces/keys.ts); `_id` is the key's id, the secret only as its SHA-256. */
export interface ApiKeyDoc {
  _id: string;
  workspaceId: string;
  name: string;
  role: Role;
  /** SHA-256 (hex) of the key's secret. */
  secretHash: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /** Who made it; absent on keys made before 0.11 (src/workspaces/keys.ts). */
  createdBy?: KeyMaker;
}

/**
 * One entry of a workspace's audit log, `<workspace>:<n>` (n from 1, claimed by insert;
 * src/workspaces/audit.ts): who did what to which resource, when, from where. Never a secret or a body.
 */
export interface AuditEntryDoc {
  _id: string;
  at: Date;
  /** Who; the text "<name> (key <id>)" or "admin" before 0.11 (src/workspaces/audit.ts reads both). */
  actor: AuditActor | string;
  action: string;
  /** Absent before 0.11, when only writes that were done were recorded. */
  outcome?: AuditOutcome;
  resource: string;
  address: string;
}

/**
 * Where a workspace's audit log stands, `_id` the workspace: the first entry kept (older ones
 * were swept) and an entry known to exist (the last is found from there by `_id`).
 */
export interface AuditHeadDoc {
  _id: string;
  from: number;
  last: number;
}

/**
 * An entry of a workspace's robots directory, `<workspace>:<n>` (a chain, src/storage/chains.ts): a
 * robot as it was made or renamed (src/workspaces/robot-directory.ts). The last entry of a robot wins.
 */
export interface RobotListingDoc {
  _id: string;
  robotId: string;
  name: string;
  /** When the robot was made (its place in the list). */
  createdAt: Date;
  /** Its state then (the robots page's filter); absent in entries written before 0.12. */
  state?: RobotState;
}

/** A robot as a directory's snapshot holds it: id, name, when it was made (ms) and its state. */
export interface SnapshotRobot {
  id: string;
  name: string;
  createdAt: number;
  /** Absent in snapshots written before 0.12 (read from the robot then, once). */
  state?: RobotState;
}

/**
 * A workspace's directory up to an entry (`_id` the workspace): its robots read at once, as JSON
 * text (SnapshotRobot[]): FerretDB reads one string of 1 MB much faster than 10,000 subdocuments.
 */
export interface RobotListingSnapshotDoc {
  _id: string;
  upTo: number;
  robotsJson: string;
}

/** A one-time change of what is stored (src/workspaces/migration.ts), by its name, once done. */
export interface MigrationDoc {
  _id: string;
  at: Date;
}

const opts = { versionKey: false as const, _id: false as const };

export const workspaceSchemas = {
  workspace: new Schema<WorkspaceDoc>(
    {
      _id: { type: String, required: true },
      name: { type: String, required: true },
      createdAt: { type: Date, required: true },
    },
    { ...opts, collection: 'workspaces' },
  ),
  apiKey: new Schema<ApiKeyDoc>(
    {
      _id: { type: String, required: true },
      workspaceId: { type: String, required: true },
      name: { type: String, required: true },
      role: { type: String, enum: ROLES, required: true },
      secretHash: { type: String, required: true },
      createdAt: { type: Date, required: true },
      expiresAt: { type: Date, default: null },
      revokedAt: { type: Date, default: null },
      lastUsedAt: { type: Date, default: null },
      createdBy: { type: Schema.Types.Mixed },
    },
    { ...opts, collection: 'api_keys' },
  ),
  auditEntry: new Schema<AuditEntryDoc>(
    {
      _id: { type: String, required: true },
      at: { type: Date, required: true },
      actor: { type: Schema.Types.Mixed, required: true },
      action: { type: String, required: true },
      outcome: { type: String },
      resource: { type: String, required: true },
      address: { type: String, required: true },
    },
    { ...opts, collection: 'audit_entries' },
  ),
  auditHead: new Schema<AuditHeadDoc>(
    {
      _id: { type: String, required: true },
      from: { type: Number, required: true },
      last: { type: Number, required: true },
    },
    { ...opts, collection: 'audit_heads' },
  ),
  robotListing: new Schema<RobotListingDoc>(
    {
      _id: { type: String, required: true },
      robotId: { type: String, required: true },
      name: { type: String, required: true },
      createdAt: { type: Date, required: true },
      state: { type: String },
    },
    { ...opts, collection: 'robot_listings' },
  ),
  robotListingSnapshot: new Schema<RobotListingSnapshotDoc>(
    {
      _id: { type: String, required: true },
      upTo: { type: Number, required: true },
      robotsJson: { type: String, required: true },
    },
    { ...opts, collection: 'robot_listing_snapshots' },
  ),
  migration: new Schema<MigrationDoc>(
    { _id: { type: String, required: true }, at: { type: Date, required: true } },
    { ...opts, collection: 'migrations' },
  ),
};

/** The workspaces' models, each typed by its document (as historyModels in ./history-documents.ts). */
export function workspaceModels(db: Connection) {
  return {
    Workspace: db.model<WorkspaceDoc>('Workspace', workspaceSchemas.workspace),
    ApiKey: db.model<ApiKeyDoc>('ApiKey', workspaceSchemas.apiKey),
    AuditEntry: db.model<AuditEntryDoc>('AuditEntry', workspaceSchemas.auditEntry),
    AuditHead: db.model<AuditHeadDoc>('AuditHead', workspaceSchemas.auditHead),
    Migration: db.model<MigrationDoc>('Migration', workspaceSchemas.migration),
    RobotListing: db.model<RobotListingDoc>('RobotListing', workspaceSchemas.robotListing),
    RobotListingSnapshot: db.model<RobotListingSnapshotDoc>(
      'RobotListingSnapshot',
      workspaceSchemas.robotListingSnapshot,
    ),
  };
}
