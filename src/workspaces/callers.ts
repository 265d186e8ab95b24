/**
 * Who a management request's caller is (src/domain/workspaces.ts): the admin token, acting in the
 * workspace `X-Workspace-Id` names (or `default`; the path's for the keys of a workspace), or a key,
 * in its own. A missing or wrong credential (a revoked or expired key too) is 401, counts against
 * its client address (src/core/throttle.ts) and in `webhooks_api_credentials_refused_total{reason}`; a key
 * asking for another workspace's keys is 404, as is a workspace that does not exist. A role short
 * of the operation's is 403, answered (and recorded) by the route (src/contract/route.ts).
 */
import type { Context } from 'koa';
import type { Operation } from '../contract/operation';
import { bearerOf, notFound, refuseCredential, unauthorized } from '../core/http-errors';
import type { Throttle } from '../core/throttle';
import { secretsEqual } from '../domain/secrets';
import { DEFAULT_WORKSPACE, type Caller } from '../domain/workspaces';
import type { CredentialRefusal, Keys } from './keys';
import type { Workspaces } from './workspaces';

export interface CallersDeps {
  adminToken: string;
  /** Wrong credentials per client address. */
  authFailures: Throttle;
  keys: Keys;
  workspaces: Workspaces;
  /** Counts a request refused for its credential (no caller known, so no workspace to record it in). */
  refused(reason: CredentialRefusal): void;
}

/** Who asks for `op`, with what role, in which workspace; throws the refusal (401, 404) otherwise. */
export async function identifyCaller(ctx: Context, op: Operation, deps: CallersDeps): Promise<Caller> {
  const given = bearerOf(ctx);
  const address = ctx.ip;
  const pathWorkspace = op.workspaceFromPath ? (ctx.params as Record<string, string>).id : undefined;
  if (given && secretsEqual(given, deps.adminToken)) {
    const workspaceId = pathWorkspace ?? (ctx.get('x-workspace-id') || DEFAULT_WORKSPACE);
    if (!(await deps.workspaces.exists(workspaceId))) throw notFound('workspace not found');
    return { actor: { kind: 'admin' }, workspaceId, role: 'operator', address };
  }
  const checked = given ? await deps.keys.check(given) : { refused: 'missing' as const };
  if ('refused' in checked) {
    deps.refused(checked.refused);
    refuseCredential(ctx, deps.authFailures, () =>
      unauthorized('missing or wrong credential: the admin token or a key that is neither revoked nor expired'),
    );
  }
  const { key } = checked;
  if (pathWorkspace !== undefined && pathWorkspace !== key.workspaceId) throw notFound('workspace not found');
  return {
    actor: { kind: 'key', keyId: key._id, name: key.name },
    workspaceId: key.workspaceId,
    role: key.role,
    address,
  };
}
