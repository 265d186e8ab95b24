/**
 * Issues (src/domain/issues.ts, docs/issues.md): one document per robot, kind and reason, its `_id`
 * computed from them (src/domain/issue-ids.ts), so every process counts into it by `_id` with no read
 * (src/issues/counter.ts). Its status is computed from its times, never stored: the counter writes the
 * counts and times, a person `acknowledgedAt` or `resolvedAt`, and neither write touches the other's.
 */
import { Schema, type Connection } from 'mongoose';
import { ISSUE_KINDS, type IssueKind } from '../domain/issues';

export interface IssueDoc {
  _id: string;
  workspaceId: string;
  robotId: string;
  kind: IssueKind;
  reason: string;
  count: number;
  firstSeen: Date;
  lastSeen: Date;
  /** The newest delivery counted (a run's delivery); absent when only throttled ones were. */
  lastDeliveryId?: string;
  acknowledgedAt?: Date;
  resolvedAt?: Date;
  /** When an opening or reopening last notified (at most once per ISSUE_NOTIFY_INTERVAL). */
  notifiedAt?: Date;
}

const opts = { versionKey: false as const, _id: false as const };

const issueSchema = new Schema<IssueDoc>(
  {
    _id: { type: String, required: true },
    workspaceId: { type: String, required: true },
    robotId: { type: String, required: true },
    kind: { type: String, enum: ISSUE_KINDS, required: true },
    reason: { type: String, required: true },
    count: { type: Number, required: true },
    firstSeen: { type: Date, required: true },
    lastSeen: { type: Date, required: true },
    lastDeliveryId: { type: String, default: undefined },
    acknowledgedAt: { type: Date, default: undefined },
    resolvedAt: { type: Date, default: undefined },
    notifiedAt: { type: Date, default: undefined },
  },
  { ...opts, collection: 'issues' },
);

export function issueModels(db: Connection) {
  return { Issue: db.model<IssueDoc>('Issue', issueSchema) };
}
