/**
 * The names of what audit entries name (`robot:<id>`, `app:<id>`, `key:<id>`…), as they are now, so
 * the audit log shows a robot's name rather than its id. Each distinct resource of a page costs at
 * most one read by `_id` (robots none: the workspace's directory holds their names, keys one read of
 * the workspace's few keys); a resource of another workspace, or gone, has no name.
 */
import type { AppDoc, ConnectionDoc } from '../storage/documents';
import type { Models } from '../storage/models';
import { byId } from '../storage/by-id';
import type { Keys } from './keys';
import type { RobotDirectory } from './robot-directory';
import type { Workspaces } from './workspaces';

export interface NamesDeps {
  models: Models;
  keys: Keys;
  directory: RobotDirectory;
  workspaces: Workspaces;
}

/** `<kind>:<id>` split; null for a resource of no id (a key's making refused before it was made: `key:`). */
function parsed(resource: string): { kind: string; id: string } | null {
  const at = resource.indexOf(':');
  return at > 0 && at < resource.length - 1 ? { kind: resource.slice(0, at), id: resource.slice(at + 1) } : null;
}

/** The name of each resource that has one, by its `<kind>:<id>`, in the workspace. */
export async function resourceNames(
  deps: NamesDeps,
  workspaceId: string,
  resources: readonly string[],
): Promise<Map<string, string>> {
  const named = [...new Set(resources)].map(parsed).filter((r): r is { kind: string; id: string } => r !== null);
  const ids = (kind: string) => named.filter((r) => r.kind === kind).map((r) => r.id);
  const names = new Map<string, string>();
  const robots = ids('robot');
  if (robots.length > 0)
    for (const [id, name] of await deps.directory.names(workspaceId, robots)) names.set(`robot:${id}`, name);
  if (ids('key').length > 0) for (const k of await deps.keys.of(workspaceId)) names.set(`key:${k._id}`, k.name);
  const owned = async (kind: 'app' | 'connection', id: string) => {
    const model = kind === 'app' ? deps.models.App : deps.models.Connection;
    const doc = await byId<AppDoc | ConnectionDoc>(model, id, { name: 1, workspaceId: 1 });
    if (doc && doc.workspaceId === workspaceId) names.set(`${kind}:${id}`, doc.name);
  };
  await Promise.all([
    ...ids('app').map((id) => owned('app', id)),
    ...ids('connection').map((id) => owned('connection', id)),
  ]);
  // A workspace is made by the admin only, recorded in the workspace it acted in.
  for (const id of ids('workspace')) {
    const workspace = await deps.workspaces.get(id);
    if (workspace) names.set(`workspace:${id}`, workspace.name);
  }
  return names;
}
