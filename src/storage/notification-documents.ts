/**
 * A workspace's notification channels (src/notifications/, docs/notifications.md). Few per workspace
 * (CHANNELS_PER_WORKSPACE), made by people: a workspace's are read with `{ workspaceId }` (a scan in
 * FerretDB v1, of a small collection: docs/storage.md), one by `_id`.
 */
import { Schema, type Connection } from 'mongoose';
import { CHANNEL_KINDS, type ChannelKind } from '../domain/notifications';

/** A channel: where a workspace's notifications go, and how its last ones went. */
export interface NotificationChannelDoc {
  _id: string;
  workspaceId: string;
  kind: ChannelKind;
  /** webhook and slack: where it is sent (checked when made and again at each send). */
  url?: string;
  /** email: the one address it is sent to. */
  to?: string;
  /** webhook: its `whsec_` signing secret, sealed as apps' secrets are (src/apps/apps.ts); never returned. */
  secretSealed?: string;
  createdAt: Date;
  /** Notifications in a row that failed every attempt; 0 once one is delivered. */
  failuresInARow: number;
  /** Why its last failed attempt failed (one line, CHANNEL_ERROR_CHARS). */
  lastError?: string;
  lastFailedAt?: Date;
  lastSentAt?: Date;
}

const channelSchema = new Schema<NotificationChannelDoc>(
  {
    _id: { type: String, required: true },
    workspaceId: { type: String, required: true },
    kind: { type: String, enum: CHANNEL_KINDS, required: true },
    url: { type: String },
    to: { type: String },
    secretSealed: { type: String },
    createdAt: { type: Date, required: true },
    failuresInARow: { type: Number, required: true, default: 0 },
    lastError: { type: String },
    lastFailedAt: { type: Date },
    lastSentAt: { type: Date },
  },
  { versionKey: false, _id: false, collection: 'notification_channels' },
);

/** The notifications' models (gathered by ./models.ts). */
export function notificationModels(db: Connection) {
  return { NotificationChannel: db.model<NotificationChannelDoc>('NotificationChannel', channelSchema) };
}
