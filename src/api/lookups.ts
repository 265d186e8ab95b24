/**
 * What every management route does to find what it names (in the caller's workspace only: an
 * operation's `names`, found by src/contract/route.ts with `namedIn`), to read a page of the
 * history, and to make a delivery it was asked for.
 */
import type { Named } from '../contract/operation';
import { conflict, invalidField, notFound } from '../core/http-errors';
import { DeliveryRefused } from '../deliveries/start';
import { BadCursor } from '../domain/cursors';
import type { Caller } from '../domain/workspaces';
import { byId } from '../storage/by-id';
import type { AppDoc, ConnectionDoc, DeliveryDoc, RobotDoc, RunDoc } from '../storage/documents';
import type { Models } from '../storage/models';
import type { ApiKeyDoc } from '../storage/workspace-documents';
import type { IssueDoc } from '../storage/issue-documents';
import type { NotificationChannelDoc } from '../storage/notification-documents';
import type { Keys } from '../workspaces/keys';

/** The document, or 404 naming what was not found. */
export async function found<T>(what: string, doc: Promise<T | null>): Promise<T> {
  const value = await doc;
  if (!value) throw notFound(`${what} not found`);
  return value;
}

/** The documents an operation's `names` finds (src/contract/operation.ts), by what it names. */
export interface NamedDocs {
  robot: RobotDoc;
  app: AppDoc;
  connection: ConnectionDoc;
  run: RunDoc;
  delivery: DeliveryDoc;
  key: ApiKeyDoc;
  issue: IssueDoc;
  channel: NotificationChannelDoc;
}

/**
 * What a path names (its operation's `names`), read by `_id`, when it is of the caller's workspace:
 * a robot, app, connection, key, issue or notification channel by its own workspace, a run or a
 * delivery by its robot's (that robot read for its workspace only); null otherwise, which the route
 * answers 404 as for what does not exist (src/contract/route.ts): a key never learns what another
 * workspace has.
 */
export function namedIn(models: Models, keys: Pick<Keys, 'get'>) {
  const inWorkspace = <T extends { workspaceId: string }>(doc: T | null, caller: Caller): T | null =>
    doc && doc.workspaceId === caller.workspaceId ? doc : null;
  const byRobotIn = async <T extends { robotId: string }>(doc: T | null, caller: Caller): Promise<T | null> => {
    if (!doc) return null;
    const robot = await byId<RobotDoc>(models.Robot, doc.robotId, { _id: 1, workspaceId: 1 });
    return inWorkspace(robot, caller) && doc;
  };
  const finds: { [K in Named]: (id: string, caller: Caller) => Promise<NamedDocs[K] | null> } = {
    robot: async (id, caller) => inWorkspace(await byId<RobotDoc>(models.Robot, id), caller),
    app: async (id, caller) => inWorkspace(await byId<AppDoc>(models.App, id), caller),
    connection: async (id, caller) => inWorkspace(await byId<ConnectionDoc>(models.Connection, id), caller),
    key: async (id, caller) => inWorkspace(await keys.get(id), caller),
    issue: async (id, caller) => inWorkspace(await byId<IssueDoc>(models.Issue, id), caller),
    channel: async (id, caller) =>
      inWorkspace(await byId<NotificationChannelDoc>(models.NotificationChannel, id), caller),
    run: async (id, caller) => byRobotIn(await byId<RunDoc>(models.Run, id), caller),
    delivery: async (id, caller) => byRobotIn(await byId<DeliveryDoc>(models.Delivery, id), caller),
  };
  return (what: Named, id: string, caller: Caller): Promise<NamedDocs[Named] | null> => finds[what](id, caller);
}

/** A page (of the history, the robots, the audit log); a cursor this service did not make is the caller's error. */
export async function pageOf<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof BadCursor) throw invalidField('cursor', err.message);
    throw err;
  }
}

/** A delivery asked for (a replay, a test delivery); a refusal is the caller's to fix: 409 with the reason. */
export async function asked<T>(delivery: Promise<T>): Promise<T> {
  try {
    return await delivery;
  } catch (err) {
    if (err instanceof DeliveryRefused) throw conflict(err.message);
    throw err;
  }
}
