/**
 * The answers of workspaces, keys, the caller and the audit log (src/domain/workspaces.ts,
 * docs/workspaces.md), part of the management API's answers (./answers.ts, `ANSWERS`).
 */
import { z } from 'zod';
import { ROLES } from '../domain/workspaces';
import { answer, time } from './answer-shape';

const workspaceAnswer = answer({ id: z.string(), name: z.string(), createdAt: time });
const workspacesAnswer = answer({ workspaces: z.array(workspaceAnswer) });

/** Who made a key: the admin, or a key of the workspace (revoking it revokes this one). */
const keyMakerAnswer = answer({ kind: z.enum(['admin', 'key']), keyId: z.string().nullable() });

const keyShape = {
  id: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  createdAt: time,
  /** Never later than its maker's, when a key made it. */
  expiresAt: time.nullable(),
  revokedAt: time.nullable(),
  /** When it was last accepted, to the minute (null: never). */
  lastUsedAt: time.nullable(),
  /** Null for a key made before makers were recorded (0.11). */
  createdBy: keyMakerAnswer.nullable(),
};
/** A key as lists show it: never its value. */
const keyAnswer = answer(keyShape);
/** A key as it is made: the only answer that holds its value (`key`), shown once. */
const createdKeyAnswer = answer({ ...keyShape, key: z.string() });
/**
 * The workspace's keys, each with why revoking it would be refused (409: it is, or it made, the
 * last working owner key), or null.
 */
const keysAnswer = answer({ keys: z.array(answer({ ...keyShape, revokeRefused: z.string().nullable() })) });

/** Who the request's credential is: what the dashboard shows and which buttons it offers. */
const callerAnswer = answer({
  /** "admin", or the key's name and id. */
  actor: z.string(),
  role: z.enum([...ROLES, 'operator']),
  workspace: workspaceAnswer,
  /** The caller's key (null: the admin token), marked "your key" on the dashboard's Keys page. */
  keyId: z.string().nullable(),
});

/**
 * Who acted, as fields (never one text: a key named "admin" is not the admin): the operator, a key
 * (its id and its name then), or a sender on a webhook URL (known by the entry's address).
 */
const auditActorAnswer = answer({
  kind: z.enum(['admin', 'key', 'sender']),
  keyId: z.string().nullable(),
  name: z.string().nullable(),
});

/**
 * One management write, done or refused (403), or what a sender did: who, what, on which resource,
 * when, and (to owners and the operator only) from which address; never a secret or a body.
 */
const auditEntryAnswer = answer({
  at: time,
  actor: auditActorAnswer,
  action: z.string(),
  outcome: z.enum(['started', 'done', 'failed', 'refused']),
  resource: z.string(),
  /** The resource's name (a robot's, an app's, a key's…) as it is now; null when it has none or is gone. */
  resourceName: z.string().nullable(),
  address: z.string().optional(),
});
const auditPageAnswer = answer({ entries: z.array(auditEntryAnswer), nextCursor: z.string().nullable() });

/** Their schemas, by the name they have in the OpenAPI document. */
export const WORKSPACE_ANSWERS = {
  Workspace: workspaceAnswer,
  Workspaces: workspacesAnswer,
  Key: keyAnswer,
  CreatedKey: createdKeyAnswer,
  Keys: keysAnswer,
  Caller: callerAnswer,
  AuditPage: auditPageAnswer,
} satisfies Record<string, z.ZodTypeAny>;

export type KeyAnswer = z.output<typeof keysAnswer>['keys'][number];
export type WorkspaceAnswer = z.output<typeof workspaceAnswer>;
export type AuditEntryAnswer = z.output<typeof auditEntryAnswer>;
export type CallerAnswer = z.output<typeof callerAnswer>;
