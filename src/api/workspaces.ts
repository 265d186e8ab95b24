/**
 * Workspaces, their keys and the audit log (src/domain/workspaces.ts): the operator makes
 * workspaces and keys; an owner makes and revokes its workspace's keys; everyone reads the log of
 * their own workspace, and learns who they are (`GET /api/me`, what the dashboard shows).
 */
import { MANAGEMENT } from '../contract/management';
import { actorName } from '../domain/workspaces';
import type { ApiKeyDoc, AuditEntryDoc, WorkspaceDoc } from '../storage/workspace-documents';
import { found, ours, pageOf } from './lookups';
import { route, type ManagementRoute } from './deps';

const workspaceView = (w: WorkspaceDoc) => ({ id: w._id, name: w.name, createdAt: w.createdAt });

const keyView = (k: ApiKeyDoc) => ({
  id: k._id,
  workspaceId: k.workspaceId,
  name: k.name,
  role: k.role,
  createdAt: k.createdAt,
  expiresAt: k.expiresAt,
  revokedAt: k.revokedAt,
  lastUsedAt: k.lastUsedAt,
});

const entryView = ({ at, actor, action, resource, address }: AuditEntryDoc) => ({
  at,
  actor,
  action,
  resource,
  address,
});

export const WORKSPACE_ROUTES: ManagementRoute[] = [
  route(MANAGEMENT.caller, async ({ caller }, { workspaces }) => ({
    actor: actorName(caller.actor),
    role: caller.role,
    workspace: workspaceView(await found('workspace', workspaces.get(caller.workspaceId))),
  })),
  route(MANAGEMENT.createWorkspace, async ({ body }, { workspaces }) =>
    workspaceView(await workspaces.create(body.name)),
  ),
  route(MANAGEMENT.listWorkspaces, async (_, { workspaces }) => ({
    workspaces: (await workspaces.all()).map(workspaceView),
  })),
  route(
    MANAGEMENT.createKey,
    /** The path's workspace is the caller's (src/workspaces/callers.ts). */
    async ({ body, caller }, { keys }) => {
      const { doc, key } = await keys.create(caller.workspaceId, body);
      return { id: doc._id, key, name: doc.name, role: doc.role };
    },
  ),
  route(MANAGEMENT.listKeys, async ({ caller }, { keys }) => ({
    keys: (await keys.of(caller.workspaceId)).map(keyView),
  })),
  route(MANAGEMENT.revokeKey, async ({ params, caller }, { keys }) => {
    return keyView(await keys.revoke(await ours('key', keys.get(params.id), caller)));
  }),
  route(MANAGEMENT.auditLog, async ({ query: { limit, cursor }, caller }, { audit }) => {
    const page = await pageOf(audit.page(caller.workspaceId, limit, cursor));
    return { entries: page.entries.map(entryView), nextCursor: page.nextCursor };
  }),
];
