/**
 * Issues: a robot's failures grouped by their cause (docs/issues.md). Every refused, failed or
 * handshake-refused delivery and every failed run counts in the issue of its robot, kind and reason;
 * a person acknowledges or resolves it, and a failure after a resolve opens it again.
 *
 * - **Kinds and reasons.** `refused` (the receiver refused it): `signature`, `stale_time`,
 *   `missing_header`, `wrong_token`, `throttled`; `failed` (the worker could not make runs of it):
 *   `unparsable`, `over_cap`, `over_quota`, `body_gone`; `run_failed`: `step:<the step's name>`;
 *   `handshake` (a sender's check of the URL refused): `handshake`.
 * - **Status** is computed, never stored (`issueStatus`): the counter writes only counts and times,
 *   a person only `acknowledgedAt` or `resolvedAt`, so neither write undoes the other.
 *
 * Pure: imports only the domain (the dashboard may bundle it). The issue's id is ./issue-ids.ts's.
 */
import { ISSUE_REASON_CHARS } from './limits';
import { BODY_NOT_KEPT, UNPARSABLE_BODY, type DeliveryFailure } from './types';

export const ISSUE_KINDS = ['refused', 'failed', 'run_failed', 'handshake'] as const;
export type IssueKind = (typeof ISSUE_KINDS)[number];

export const ISSUE_STATUSES = ['open', 'acknowledged', 'resolved'] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];

/** Why the receiver refused deliveries. */
export const REFUSED_REASONS = ['signature', 'stale_time', 'missing_header', 'wrong_token', 'throttled'] as const;
export type RefusedReason = (typeof REFUSED_REASONS)[number];

/** Why the worker made no run of a delivery (src/domain/deliveries.ts: unparsable, over a cap, body gone). */
export const FAILED_REASONS = ['unparsable', 'over_cap', 'over_quota', 'body_gone'] as const;
export type FailedReason = (typeof FAILED_REASONS)[number];

/** What an issue is about: its kind and reason (with its robot, what tells issues apart). */
export interface IssueCause {
  kind: IssueKind;
  reason: string;
}

/** One failure, as a site that knows its cause tells the counter (src/issues/counter.ts). */
export interface IssueHit extends IssueCause {
  robotId: string;
  workspaceId: string;
  /** The delivery it was (a run's delivery); none for a throttled one, which nothing recorded. */
  deliveryId?: string;
  at: Date;
}

/**
 * The reason of a check's refusal, from its text (src/domain/senders/: `missing X header`, `timestamp
 * outside the 300-second tolerance`, `token expired`, anything else a signature that does not verify).
 */
export function refusedReason(text: string): RefusedReason {
  if (/^missing /.test(text)) return 'missing_header';
  if (/tolerance|expired/.test(text)) return 'stale_time';
  return 'signature';
}

/**
 * The reason of a delivery failed by the worker: its failure, and for a cap the one it passed (the
 * fan-out quota's, FANOUT_ROWS_PER_HOUR and its _PER_WORKSPACE, is `over_quota`: its message names it;
 * every other OVER_CAP is `over_cap`).
 */
export function failedReason(failure: DeliveryFailure, error: string): FailedReason {
  if (failure === UNPARSABLE_BODY) return 'unparsable';
  if (failure === BODY_NOT_KEPT) return 'body_gone';
  return /^over FANOUT_ROWS_PER_HOUR/.test(error) ? 'over_quota' : 'over_cap';
}

/** The reason of a run failed at a step: its name (people's text), cut to ISSUE_REASON_CHARS. */
export function runFailedReason(stepName: string): string {
  return `step:${stepName}`.slice(0, ISSUE_REASON_CHARS);
}

/** What an issue's status is computed from. */
export interface IssueTimes {
  lastSeen: Date;
  acknowledgedAt?: Date | null;
  resolvedAt?: Date | null;
}

/**
 * `resolved` while no failure came after the resolve; else `acknowledged` when acknowledged after
 * its last resolve (or never resolved); else `open`. So a failure after a resolve reopens it.
 */
export function issueStatus({ lastSeen, acknowledgedAt, resolvedAt }: IssueTimes): IssueStatus {
  if (resolvedAt && resolvedAt.getTime() >= lastSeen.getTime()) return 'resolved';
  if (acknowledgedAt && (!resolvedAt || acknowledgedAt.getTime() > resolvedAt.getTime())) return 'acknowledged';
  return 'open';
}

/**
 * What a flush of hits did to the issue, from what it was `before` (none: it did not exist) and the
 * newest of the hits: opened it, reopened it (it was resolved, and a hit came after the resolve), or
 * neither.
 */
export function issueChange(before: IssueTimes | null, newest: Date): 'opened' | 'reopened' | null {
  if (!before) return 'opened';
  if (issueStatus(before) !== 'resolved') return null;
  const lastSeen = new Date(Math.max(before.lastSeen.getTime(), newest.getTime()));
  return issueStatus({ ...before, lastSeen }) === 'resolved' ? null : 'reopened';
}

/** Whether an issue opened or reopened now notifies: never notified, or not within `intervalMs`. */
export function notifiesNow(notifiedAt: Date | null | undefined, now: Date, intervalMs: number): boolean {
  return !notifiedAt || now.getTime() - notifiedAt.getTime() >= intervalMs;
}

/**
 * The API path of what an issue counted: its robot's deliveries log filtered to the outcome its kind
 * records (refused and handshake ones are `rejected`), or its robot's runs for a failed run.
 */
export function issueDeliveriesPath(robotId: string, kind: IssueKind): string {
  const robot = `/api/robots/${encodeURIComponent(robotId)}`;
  if (kind === 'run_failed') return `${robot}/runs`;
  return `${robot}/deliveries?outcome=${kind === 'failed' ? 'failed' : 'rejected'}`;
}
