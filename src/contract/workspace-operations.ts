/**
 * The management API's workspace operations (docs/workspaces.md): who the caller is, workspaces,
 * their keys and the audit log, declared as ./management.ts declares the others, which gathers
 * them (and gives each its operationId). Types-only imports: the dashboard's bundle takes it whole.
 */
import type { OperationDeclaration } from './operation';

export const WORKSPACE_OPERATIONS = {
  caller: {
    method: 'get',
    path: '/api/me',
    summary: "Who the credential is: its author's name, role and workspace",
    access: 'viewer',
    answers: { 200: 'Caller' },
  },
  createWorkspace: {
    method: 'post',
    path: '/api/workspaces',
    summary: 'Create a workspace (the admin token only)',
    access: 'operator',
    audit: 'workspace.create',
    body: 'CreateWorkspace',
    answers: { 201: 'Workspace', 400: 'Error' },
  },
  listWorkspaces: {
    method: 'get',
    path: '/api/workspaces',
    summary: 'Every workspace (the admin token only)',
    access: 'operator',
    answers: { 200: 'Workspaces' },
  },
  createKey: {
    method: 'post',
    path: '/api/workspaces/:id/keys',
    summary: "Create a key (its value in this answer only): the admin token's, or an owner key's, bound to it",
    access: 'owner',
    workspaceFromPath: true,
    audit: 'key.create',
    body: 'CreateKey',
    answers: { 201: 'CreatedKey', 400: 'Error', 404: 'Error', 409: 'Error' },
  },
  listKeys: {
    method: 'get',
    path: '/api/workspaces/:id/keys',
    summary: "The workspace's keys, never their values (the admin token, or an owner's key)",
    access: 'owner',
    workspaceFromPath: true,
    answers: { 200: 'Keys', 404: 'Error' },
  },
  revokeKey: {
    method: 'delete',
    path: '/api/keys/:id',
    names: 'key',
    summary:
      'Revoke a key of the workspace, and every key it made: they are refused from then on, by every receiver ' +
      "(409 when that would revoke the workspace's last working owner key)",
    access: 'owner',
    audit: 'key.revoke',
    answers: { 200: 'Key', 404: 'Error', 409: 'Error' },
  },
  auditLog: {
    method: 'get',
    path: '/api/audit',
    summary:
      "The workspace's audit log: every management write, done or refused, newest first (by actor, action and time)",
    access: 'viewer',
    query: 'AuditPage',
    items: 'entries',
    answers: { 200: 'AuditPage', 400: 'Error' },
  },
} as const satisfies Record<string, OperationDeclaration>;
