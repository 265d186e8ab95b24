/**
 * The dashboard's only way to the service: the public management API (docs/api.md), with the
 * credential a person pasted at sign-in (a workspace's key or the admin token), kept for the
 * browser session only (sessionStorage), never in a URL. The admin token acts in the workspace
 * the person chose (`X-Workspace-Id`, kept beside it); a key acts in its own. A 401 forgets the
 * credential only: the dashboard shows sign-in over the page, whose forms keep what was typed.
 */

import type { ManagementOperation } from '../../src/contract/management';
import { ApiError, callOperation, type AnswerOf, type ArgsOf } from '../../src/client/operations';

const TOKEN_KEY = 'credential';
const CALLER_KEY = 'caller';
const WORKSPACE_KEY = 'workspace-id';

/**
 * This browser tab's session: what a person signed in with, who the API says that is (`GET
 * /api/me`: what the dashboard shows and which controls it offers, ./rights.ts) and, for the
 * admin, the workspace chosen.
 */
export const session = {
  token: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  signIn: (token: string) => {
    session.signOut();
    sessionStorage.setItem(TOKEN_KEY, token);
  },
  signOut: () => [TOKEN_KEY, CALLER_KEY, WORKSPACE_KEY].forEach((k) => sessionStorage.removeItem(k)),
  /**
   * The credential was refused mid-session (revoked or expired): it is forgotten, who it was and the
   * admin's workspace are kept, so the page and what was typed in its forms stay under sign-in.
   */
  lapse: () => sessionStorage.removeItem(TOKEN_KEY),
  /** Signs in again after a lapse: a new credential, the page and the admin's workspace kept. */
  resume: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  /** Who the credential is, as last asked (null: not asked yet in this tab). */
  caller: (): Caller | null => {
    const kept = sessionStorage.getItem(CALLER_KEY);
    return kept === null ? null : (JSON.parse(kept) as Caller);
  },
  remember: (caller: Caller) => sessionStorage.setItem(CALLER_KEY, JSON.stringify(caller)),
  /** The workspace the admin token acts in (null: `default`); only the admin chooses one. */
  workspaceId: (): string | null => sessionStorage.getItem(WORKSPACE_KEY),
  chooseWorkspace: (id: string) => sessionStorage.setItem(WORKSPACE_KEY, id),
};

export { ApiError };

/** Hears that the credential was refused (the app then shows sign-in). */
let onSignedOut: () => void = () => undefined;
export const whenSignedOut = (listener: () => void) => (onSignedOut = listener);

/**
 * Calls a management operation by its name (src/client/operations.ts) with this tab's credential and,
 * for the admin, the workspace chosen. A 401 forgets the credential and shows sign-in.
 */
export async function call<K extends ManagementOperation>(name: K, ...args: ArgsOf<K>): Promise<AnswerOf<K>> {
  const token = session.token();
  // No credential (it lapsed while a page was open): nothing is asked until sign-in.
  if (token === null) throw new ApiError(401, 'Signed out: sign in again');
  const workspaceId = session.workspaceId();
  const headers = {
    authorization: `Bearer ${token}`,
    ...(workspaceId === null ? {} : { 'x-workspace-id': workspaceId }),
  };
  try {
    return await callOperation({ fetch: (url, init) => fetch(url, init), origin: '', headers }, name, ...args);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401) throw err;
    session.lapse();
    onSignedOut();
    throw new ApiError(401, 'The key or admin token was refused (wrong, revoked or expired)');
  }
}

// ---- What the API answers: the types of the schemas the service answers by (src/contract/answers.ts) ----
// Type-only imports: nothing of the service's code reaches the browser bundle from here (the pure rules
// of src/domain/placeholders.ts and fields.ts do, through pages/fields.tsx).

import type {
  AppAnswer,
  AuditEntryAnswer,
  CallerAnswer,
  ConnectionAnswer,
  DeliveryAnswer,
  IssueAnswer,
  KeyAnswer,
  RobotAnswer,
  RobotFieldsAnswer,
  RunAnswer,
  RunSummaryAnswer,
  WorkspaceAnswer,
} from '../../src/contract/answers';
import type { CreateRobotBody } from '../../src/contract/requests';

export type App = AppAnswer;
export type Connection = ConnectionAnswer;
export type Robot = RobotAnswer;
export type RobotFields = RobotFieldsAnswer;
export type RunSummary = RunSummaryAnswer;
export type Run = RunAnswer;
export type Delivery = DeliveryAnswer;
export type BodyFormat = App['bodyFormat'];
export type Outcome = Delivery['outcome'];
export type Steps = CreateRobotBody['steps'];
export type Caller = CallerAnswer;
export type Role = Caller['role'];
export type Workspace = WorkspaceAnswer;
export type Key = KeyAnswer;
export type AuditEntry = AuditEntryAnswer;
export type Issue = IssueAnswer;
export type IssueStatus = Issue['status'];
export type Channel = AnswerOf<'listNotificationChannels'>['channels'][number];
export type ChannelKind = Channel['kind'];
