/**
 * The management API's issue operations (docs/issues.md): a workspace's issues, acknowledged and
 * resolved, declared as ./management.ts declares the others, which gathers them (and gives each its
 * operationId). Types-only imports: the dashboard's bundle takes it whole.
 */
import type { OperationDeclaration } from './operation';

export const ISSUE_OPERATIONS = {
  listIssues: {
    method: 'get',
    path: '/api/issues',
    summary:
      "A page of the workspace's issues (its robots' failures grouped by cause), newest failure first; " +
      'by status and robot when asked',
    access: 'viewer',
    query: 'IssuesPage',
    items: 'issues',
    answers: { 200: 'IssuesPage', 400: 'Error' },
  },
  acknowledgeIssue: {
    method: 'post',
    path: '/api/issues/:id/acknowledge',
    names: 'issue',
    summary: 'Acknowledge an issue: someone is on it (409 when it is resolved)',
    access: 'editor',
    audit: 'issue.acknowledge',
    answers: { 200: 'Issue', 404: 'Error', 409: 'Error' },
  },
  resolveIssue: {
    method: 'post',
    path: '/api/issues/:id/resolve',
    names: 'issue',
    summary: 'Resolve an issue: its next failure opens it again',
    access: 'editor',
    audit: 'issue.resolve',
    answers: { 200: 'Issue', 404: 'Error' },
  },
} as const satisfies Record<string, OperationDeclaration>;
