/**
 * A workspace's issues (docs/issues.md): everyone reads them, editors and owners acknowledge and
 * resolve them (src/issues/issues.ts); each write is in the audit log (`issue.acknowledge`,
 * `issue.resolve`), as every write is, by its route.
 */
import { MANAGEMENT } from '../contract/management';
import { issueDeliveriesPath, issueStatus } from '../domain/issues';
import { acknowledgeIssue, issuesPage, resolveIssue } from '../issues/issues';
import type { IssueDoc } from '../storage/issue-documents';
import { route, type ManagementRoute } from './deps';
import { pageOf } from './lookups';

/** An issue as the API answers it, its robot named (`names`: the workspace's directory). */
const issueView = (names: Map<string, string>) => (i: IssueDoc) => ({
  id: i._id,
  robotId: i.robotId,
  robotName: names.get(i.robotId) ?? null,
  kind: i.kind,
  reason: i.reason,
  count: i.count,
  firstSeen: i.firstSeen,
  lastSeen: i.lastSeen,
  status: issueStatus(i),
  acknowledgedAt: i.acknowledgedAt ?? null,
  resolvedAt: i.resolvedAt ?? null,
  lastDeliveryId: i.lastDeliveryId ?? null,
  deliveriesUrl: issueDeliveriesPath(i.robotId, i.kind),
});

export const ISSUE_ROUTES: ManagementRoute[] = [
  route(MANAGEMENT.listIssues, async ({ query, caller }, { models, directory }) => {
    const page = await pageOf(issuesPage(models, caller.workspaceId, query));
    const names = await directory.names(caller.workspaceId, [...new Set(page.issues.map((i) => i.robotId))]);
    return { issues: page.issues.map(issueView(names)), nextCursor: page.nextCursor };
  }),
  route(MANAGEMENT.acknowledgeIssue, async ({ named, caller }, { models, directory }) => {
    const issue = await acknowledgeIssue(models, named);
    return issueView(await directory.names(caller.workspaceId, [issue.robotId]))(issue);
  }),
  route(MANAGEMENT.resolveIssue, async ({ named, caller }, { models, directory }) => {
    const issue = await resolveIssue(models, named);
    return issueView(await directory.names(caller.workspaceId, [issue.robotId]))(issue);
  }),
];
