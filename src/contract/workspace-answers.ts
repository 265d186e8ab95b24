/**
 * The answers of workspaces, keys, the caller and the audit log (src/domain/workspaces.ts,
 * docs/workspaces.md), part of the management API's answers (./answers.ts, `ANSWERS`).
 */
import { z } from 'zod';
import { ROLES } from '../domain/workspaces';
import { answer, time } from './answer-shape';

const workspaceAnswer = answer({ id: z.string(), name: z.string(), createdAt: time });
const workspacesAnswer = answer({ workspaces: z.array(workspaceAnswer) });

/** A key as lists show it: never its value. */
const keyAnswer = answer({
  id: z.string(),
  workspaceId: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  createdAt: time,
  expiresAt: time.nullable(),
  revokedAt: time.nullable(),
  /** When it was last accepted, to the minute (null: never). */
  lastUsedAt: time.nullable(),
});
/** A key as it is made: the only answer that holds its value (`key`), shown once. */
const createdKeyAnswer = answer({ id: z.string(), key: z.string(), name: z.string(), role: z.enum(ROLES) });
const keysAnswer = answer({ keys: z.array(keyAnswer) });

/** Who the request's credential is: what the dashboard shows and which buttons it offers. */
const callerAnswer = answer({
  /** "admin", or the key's name and id. */
  actor: z.string(),
  role: z.enum([...ROLES, 'operator']),
  workspace: workspaceAnswer,
});

/** One management write: who, what, on which resource, when, from where (never a secret or a body). */
const auditEntryAnswer = answer({
  at: time,
  actor: z.string(),
  action: z.string(),
  resource: z.string(),
  address: z.string(),
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

export type KeyAnswer = z.output<typeof keyAnswer>;
export type WorkspaceAnswer = z.output<typeof workspaceAnswer>;
export type AuditEntryAnswer = z.output<typeof auditEntryAnswer>;
export type CallerAnswer = z.output<typeof callerAnswer>;
