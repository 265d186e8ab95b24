/**
 * The dashboard's only way to the service: the public management API (docs/api.md), with the
 * credential a person pasted at sign-in (a workspace's key or the admin token), kept for the
 * browser session only (sessionStorage), never in a URL. The admin token acts in the workspace
 * the person chose (`X-Workspace-Id`, kept beside it); a key acts in its own. A 401 forgets the
 * credential only: the dashboard shows sign-in over the page, whose forms keep what was typed.
 */

import { MANAGEMENT, type ManagementOperation } from '../../src/contract/management';
import type { AnswerOut, CallArgs, Operation, SuccessAnswer } from '../../src/contract/operation';

type Ops = typeof MANAGEMENT;

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

/** The API refused the request: its message, and the request field at fault when it names one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Hears that the credential was refused (the app then shows sign-in). */
let onSignedOut: () => void = () => undefined;
export const whenSignedOut = (listener: () => void) => (onSignedOut = listener);

/**
 * Calls a management operation by its name in src/contract/management.ts: its method, path,
 * body, query and answer all come from that declaration, so a call the API would refuse, or an
 * answer read as what it is not, does not compile.
 */
export async function call<K extends ManagementOperation>(
  name: K,
  ...[args]: CallArgs<Ops[K]> extends Record<never, never> ? [CallArgs<Ops[K]>?] : [CallArgs<Ops[K]>]
): Promise<AnswerOut<SuccessAnswer<Ops[K]>>> {
  const op: Operation = MANAGEMENT[name];
  const {
    params = {},
    body,
    query = {},
  } = (args ?? {}) as {
    params?: Record<string, string>;
    body?: unknown;
    query?: Record<string, string | number | undefined>;
  };
  const path = op.path.replace(/:(\w+)/g, (_, p: string) => encodeURIComponent(params[p]));
  const search = new URLSearchParams(
    Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
  ).toString();
  const workspaceId = session.workspaceId();
  // No credential (it lapsed while a page was open): nothing is asked until sign-in.
  if (session.token() === null) throw new ApiError(401, 'Signed out: sign in again');
  const res = await fetch(search ? `${path}?${search}` : path, {
    method: op.method.toUpperCase(),
    headers: {
      authorization: `Bearer ${session.token() ?? ''}`,
      ...(workspaceId === null ? {} : { 'x-workspace-id': workspaceId }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status === 401) {
    session.lapse();
    onSignedOut();
    throw new ApiError(401, 'The key or admin token was refused (wrong, revoked or expired)');
  }
  const answer = (await res.json().catch(() => ({}))) as { error?: string; field?: string };
  if (!res.ok) throw new ApiError(res.status, answer.error ?? res.statusText, answer.field);
  return answer as AnswerOut<SuccessAnswer<Ops[K]>>;
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
