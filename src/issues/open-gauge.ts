/**
 * `webhooks_issues_open{kind}`: the issues whose status is open, of every workspace, counted when the
 * receiver's metrics are scraped (src/runtime/app.ts), from one read of the issues collection reused
 * for ISSUES_GAUGE_MS. Counted there rather than as the counter writes: a status changes by a
 * person's write as well as by failures, in any process, and the collection is small (robots ×
 * reasons), so a read at a scrape is both exact and cheap, and costs nothing while nobody scrapes.
 */
import type { Gauge } from 'prom-client';
import { ISSUE_KINDS, issueStatus, type IssueKind } from '../domain/issues';
import type { IssueDoc } from '../storage/issue-documents';
import type { Models } from '../storage/models';

/** Sets the gauge from the issues as they are now. */
export async function countOpenIssues(models: Pick<Models, 'Issue'>, gauge: Gauge<'kind'>): Promise<void> {
  const fields = { kind: 1, lastSeen: 1, acknowledgedAt: 1, resolvedAt: 1 };
  const issues = await models.Issue.find({}, fields).lean<Pick<IssueDoc, 'kind' | 'lastSeen'>[]>();
  const open = new Map<IssueKind, number>(ISSUE_KINDS.map((k) => [k, 0]));
  for (const issue of issues) if (issueStatus(issue) === 'open') open.set(issue.kind, (open.get(issue.kind) ?? 0) + 1);
  for (const [kind, count] of open) gauge.set({ kind }, count);
}
