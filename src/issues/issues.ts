/**
 * A workspace's issues as people see and settle them (docs/issues.md): a page of them, newest failure
 * first, filtered by status and robot; acknowledged (someone is on it) and resolved (fixed: the next
 * failure opens it again). A person's write sets only `acknowledgedAt` or `resolvedAt`, by `_id`, so
 * it never undoes the counter's writes (./counter.ts), nor they its.
 *
 * The list reads the workspace's issues with a filter on `workspaceId`, which FerretDB v1 answers by
 * a scan in Go of the whole collection (docs/storage.md): issues are at most robots × reasons, made by
 * failures, not deliveries, so the collection stays small; sorted and paged here.
 */
import { conflict } from '../core/http-errors';
import { BadCursor } from '../domain/cursors';
import { issueStatus, type IssueStatus } from '../domain/issues';
import type { IssueDoc } from '../storage/issue-documents';
import type { Models } from '../storage/models';

export interface IssuesQuery {
  limit: number;
  cursor?: string;
  status?: IssueStatus;
  robotId?: string;
}

export interface IssuesPage {
  issues: IssueDoc[];
  nextCursor: string | null;
}

/** Where a page ends: its last issue's last failure and id (the list's order). */
type Position = [lastSeenMs: number, id: string];

const cursorOf = (issue: IssueDoc): string =>
  Buffer.from(JSON.stringify([issue.lastSeen.getTime(), issue._id] satisfies Position)).toString('base64url');

function positionOf(cursor: string): Position {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && typeof value[0] === 'number' && typeof value[1] === 'string')
      return [value[0], value[1]];
  } catch {
    // not JSON: refused below
  }
  throw new BadCursor();
}

/** The list's order: newest last failure first, then by id. */
const before = (a: Position, b: Position): boolean => a[0] > b[0] || (a[0] === b[0] && a[1] < b[1]);

/** A page of the workspace's issues, newest failure first; after `cursor` (a page's `nextCursor`). */
export async function issuesPage(models: Pick<Models, 'Issue'>, workspaceId: string, q: IssuesQuery) {
  const after = q.cursor === undefined ? null : positionOf(q.cursor);
  const all = await models.Issue.find({ workspaceId }).lean<IssueDoc[]>();
  const wanted = all
    .filter((i) => (!q.robotId || i.robotId === q.robotId) && (!q.status || issueStatus(i) === q.status))
    .filter((i) => !after || before([i.lastSeen.getTime(), i._id], after))
    .sort((a, b) => (before([a.lastSeen.getTime(), a._id], [b.lastSeen.getTime(), b._id]) ? -1 : 1));
  const issues = wanted.slice(0, q.limit);
  const more = wanted.length > q.limit;
  return { issues, nextCursor: more ? cursorOf(issues[issues.length - 1]) : null } satisfies IssuesPage;
}

/** Sets one of a person's times on the issue, by `_id`; the issue as it is then. */
async function settle(models: Pick<Models, 'Issue'>, issue: IssueDoc, set: Partial<IssueDoc>): Promise<IssueDoc> {
  const after = await models.Issue.findOneAndUpdate({ _id: issue._id }, { $set: set }, { returnDocument: 'after' })
    .lean<IssueDoc>()
    .exec();
  return after ?? { ...issue, ...set };
}

/** Someone is on it: it stays so while failures go on, until it is resolved. A resolved issue: 409. */
export function acknowledgeIssue(models: Pick<Models, 'Issue'>, issue: IssueDoc): Promise<IssueDoc> {
  if (issueStatus(issue) === 'resolved')
    throw conflict('the issue is resolved: it opens again when its failure comes back');
  return settle(models, issue, { acknowledgedAt: new Date() });
}

/**
 * Fixed: resolved until a failure comes after now (or after its last failure, when a process's clock
 * put that later), which opens it again.
 */
export function resolveIssue(models: Pick<Models, 'Issue'>, issue: IssueDoc): Promise<IssueDoc> {
  const now = Date.now();
  return settle(models, issue, { resolvedAt: new Date(Math.max(now, issue.lastSeen.getTime())) });
}
