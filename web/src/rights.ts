/**
 * Which controls the signed-in person is offered, by the role `GET /api/me` answered
 * (src/domain/workspaces.ts): a viewer reads only, so no control that writes is shown to one (the
 * API would answer it 403); an editor writes everything of its workspace but keys; an owner manages
 * its workspace's keys too; the operator (the admin token) also makes and switches workspaces.
 */
import { session, type Role } from './api';

const role = (): Role | null => session.caller()?.role ?? null;

/** Creating, editing, putting to work, pausing, stopping, rotating, replaying, sending test deliveries. */
export const canWrite = (): boolean => role() !== null && role() !== 'viewer';

/** Listing, creating and revoking the workspace's keys. */
export const canManageKeys = (): boolean => role() === 'owner' || role() === 'operator';

/** Creating workspaces and acting in any of them. */
export const isOperator = (): boolean => role() === 'operator';
