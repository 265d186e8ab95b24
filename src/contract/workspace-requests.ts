/**
 * What the workspace operations (./workspace-operations.ts) take: a workspace's and a key's making,
 * and a page of the audit log; ./requests.ts gathers them with the rest.
 */
import { z } from 'zod';
import { AUDIT_PAGE, AUDIT_PAGE_MAX } from '../domain/limits';
import { ROLES } from '../domain/workspaces';

/**
 * A page of the audit log, newest first: the entries of one actor (`admin`, `sender` or a key's id),
 * of one action (`robot.stop`), received from `since` until `until`, when given.
 */
export const auditQuery = z.object({
  limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(AUDIT_PAGE),
  cursor: z.string().max(500).optional(),
  actor: z.string().min(1).max(100).optional(),
  action: z.string().min(1).max(100).optional(),
  since: z.iso.datetime().optional(),
  until: z.iso.datetime().optional(),
});

const createWorkspaceBody = z.object({ name: z.string().trim().min(1).max(200) }).strict();

/** A key of a workspace: what it is called, its role, and when it stops working (never, when absent). */
const createKeyBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    role: z.enum(ROLES),
    expiresAt: z.iso
      .datetime()
      .refine((t) => Date.parse(t) > Date.now(), 'must be in the future')
      .optional(),
  })
  .strict();

/** Their bodies, by the name they have in the OpenAPI document. */
export const WORKSPACE_BODIES = { CreateWorkspace: createWorkspaceBody, CreateKey: createKeyBody } satisfies Record<
  string,
  z.ZodTypeAny
>;
