/**
 * Workspaces, their keys and the audit log (src/domain/workspaces.ts): the operator makes
 * workspaces and keys; an owner makes and revokes its workspace's keys (a key made by a key is
 * bound to it: src/workspaces/keys.ts); everyone reads the log of their own workspace, the client
 * addresses in it only owners and the operator, and learns who they are (`GET /api/me`, what the
 * dashboard shows).
 */
import { MANAGEMENT } from '../contract/management';
import { actorName, allows, type Caller } from '../domain/workspaces';
import type { AuditEntry } from '../workspaces/audit';
import type { ApiKeyDoc, WorkspaceDoc } from '../storage/workspace-documents';
import { found, pageOf } from './lookups';
import { route, type ManagementRoute } from './deps';
import { revokeRefusal } from '../workspaces/keys';
import { resourceNames } from '../workspaces/resource-names';

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
  createdBy: k.createdBy ?? null,
});

/** An entry as `caller` reads it, its resource named: the client's address for owners and the operator only. */
const entryView = (caller: Caller, names: Map<string, string>) => {
  const addresses = allows(caller.role, 'owner');
  return ({ at, actor, action, outcome, resource, address }: AuditEntry) => ({
    at,
    actor,
    action,
    outcome,
    resource,
    resourceName: names.get(resource) ?? null,
    ...(addresses ? { address } : {}),
  });
};

export const WORKSPACE_ROUTES: ManagementRoute[] = [
  route(MANAGEMENT.caller, async ({ caller }, { workspaces }) => ({
    actor: actorName(caller.actor),
    role: caller.role,
    workspace: workspaceView(await found('workspace', workspaces.get(caller.workspaceId))),
    keyId: caller.actor.kind === 'key' ? caller.actor.keyId : null,
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
      const maker = caller.actor.kind === 'key' ? await found('key', keys.get(caller.actor.keyId)) : null;
      const { doc, key } = await keys.create(caller.workspaceId, body, maker);
      return { ...keyView(doc), key };
    },
  ),
  route(MANAGEMENT.listKeys, async ({ caller }, { keys }) => {
    const all = await keys.of(caller.workspaceId);
    const guarded = caller.actor.kind === 'key';
    const refusal = (k: ApiKeyDoc) => (guarded && !k.revokedAt ? revokeRefusal(all, k) : null);
    return { keys: all.map((k) => ({ ...keyView(k), revokeRefused: refusal(k) })) };
  }),
  route(
    MANAGEMENT.revokeKey,
    /**
     * A key is refused (409) a revocation that would revoke the workspace's last working owner key
     * (src/workspaces/keys.ts): its owners never lock themselves out. The admin token, which can
     * always make an owner key, is not.
     */
    async ({ named: key, caller }, { keys }) => keyView(await keys.revoke(key, caller.actor.kind === 'key')),
  ),
  route(MANAGEMENT.auditLog, async ({ query, caller }, deps) => {
    const { limit, cursor, actor, action, since, until } = query;
    const filter = {
      actor,
      action,
      since: since ? new Date(since) : undefined,
      until: until ? new Date(until) : undefined,
    };
    const page = await pageOf(deps.audit.page(caller.workspaceId, limit, cursor, filter));
    const names = await resourceNames(
      deps,
      caller.workspaceId,
      page.entries.map((e) => e.resource),
    );
    return { entries: page.entries.map(entryView(caller, names)), nextCursor: page.nextCursor };
  }),
];
