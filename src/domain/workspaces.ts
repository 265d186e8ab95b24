/**
 * Workspaces and who acts in them (issue 45). Every app, connection and robot belongs to exactly one
 * workspace, and so does everything of a robot (its runs, deliveries, fields, rules, replays and
 * test deliveries). A request to the management API acts in one workspace, as one caller:
 *
 * - **the operator**, with the admin token: in the workspace named by `X-Workspace-Id` (or
 *   `default`), with every right, and the only one who creates workspaces or reads the Web UI's
 *   codec endpoint;
 * - **a key** (`Authorization: Bearer whk_…`): in its own workspace only, with its role:
 *   `viewer` reads, `editor` does everything in its workspace but keys, `owner` manages its keys too.
 *
 * Anything of another workspace is answered 404, as what does not exist (no existence leak); a
 * write the caller's role does not allow is answered 403. The webhook URL stays the only
 * credential of senders: nothing here touches the receiver.
 *
 * A key is `whk_<key id>_<secret>`: its id (a UUID, how it is found, shown in lists and the audit
 * log) and 32 random bytes (base64url). Only the secret's SHA-256 is stored. Imports nothing.
 */

/** Where data made before workspaces existed goes, and where the admin token acts unless told otherwise. */
export const DEFAULT_WORKSPACE = 'default';
/** The name `default` is shown with. */
export const DEFAULT_WORKSPACE_NAME = 'Default';

export const ROLES = ['viewer', 'editor', 'owner'] as const;
/** A key's role in its workspace. */
export type Role = (typeof ROLES)[number];

/**
 * What an operation needs: `open` (no bearer credential: the webhook URL, the Web UI's codec
 * routes with their own key), a role at least, or `operator` (the admin token).
 */
export type Access = 'open' | Role | 'operator';

const RANK: Record<Role | 'operator', number> = { viewer: 1, editor: 2, owner: 3, operator: 4 };

/** Whether a caller of this standing may do what needs `needed`. */
export function allows(held: Role | 'operator', needed: Access): boolean {
  return needed === 'open' || RANK[held] >= RANK[needed];
}

/** Who made a request: the operator (admin token) or a key, by id and name. */
export type Actor = { kind: 'admin' } | { kind: 'key'; keyId: string; name: string };

/** The caller of a management request: who, in which workspace, with what standing, from where. */
export interface Caller {
  actor: Actor;
  workspaceId: string;
  role: Role | 'operator';
  /** The client's address (src/core/client-address.ts). */
  address: string;
}

/** How `GET /api/me` names its caller: "admin", or the key's name and id. */
export function actorName(actor: Actor): string {
  return actor.kind === 'admin' ? 'admin' : `${actor.name} (key ${actor.keyId})`;
}

/**
 * Who an audit entry says acted (review R7): the operator (`admin`), a key (its id, and its name
 * as it was then), or a sender (a request on a webhook URL, known by its address only). A field
 * each, never one text: a key named "admin" is `{ kind: 'key', name: 'admin' }`, not the admin.
 */
export interface AuditActor {
  kind: 'admin' | 'key' | 'sender';
  /** The key's id; null unless `kind` is `key`. */
  keyId: string | null;
  /** The key's name; null unless `kind` is `key`. */
  name: string | null;
}

export const auditActor = (actor: Actor): AuditActor =>
  actor.kind === 'admin'
    ? { kind: 'admin', keyId: null, name: null }
    : { kind: 'key', keyId: actor.keyId, name: actor.name };

/** Who made a key (review R4): the operator, or a key of the workspace (by id). */
export interface KeyMaker {
  kind: 'admin' | 'key';
  /** The maker's id; null for the admin. */
  keyId: string | null;
}

/** A sender, as the audit log names it (its address is the entry's). */
export const SENDER_ACTOR: AuditActor = { kind: 'sender', keyId: null, name: null };

/**
 * How an audited write went. Its entry is written `started` before the write is made, so no write
 * is ever done unrecorded, then set to `done` or `failed` (an error answered); one still `started`
 * is a write whose end nobody recorded (its process stopped, or the store did not take the update):
 * it may or may not have been made. `refused` (403): the caller's role is short of it, nothing done.
 */
export type AuditOutcome = 'started' | 'done' | 'failed' | 'refused';

export const KEY_PREFIX = 'whk_';
const KEY_SHAPE = /^whk_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

/** A presented key's id and secret, or null for what is not a key's shape. */
export function parseKey(presented: string): { keyId: string; secret: string } | null {
  const m = KEY_SHAPE.exec(presented);
  return m ? { keyId: m[1], secret: m[2] } : null;
}

/** The text of a key from its id and secret. */
export const keyText = (keyId: string, secret: string) => `${KEY_PREFIX}${keyId}_${secret}`;
