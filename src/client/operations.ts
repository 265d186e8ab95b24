/**
 * A management operation called by its name in src/contract/management.ts, the one way every client
 * of the API calls it: the dashboard (web/src/api.ts, with the credential a person signed in with),
 * the tests and the bench (./api-client.ts, with the admin token). Its method, path, body, query and
 * answer all come from the declaration, so a call the API would refuse, or an answer read as what it
 * is not, does not compile. Imports the contract's types and its operation table only: it is in the
 * browser's bundle.
 */
import { MANAGEMENT, type ManagementOperation } from '../contract/management';
import type { AnswerOut, BodyIn, CallArgs, Operation, SuccessAnswer } from '../contract/operation';

type Ops = typeof MANAGEMENT;

/** The arguments of operation `K`: none at all when it takes none. */
export type ArgsOf<K extends ManagementOperation> =
  CallArgs<Ops[K]> extends Record<never, never> ? [CallArgs<Ops[K]>?] : [CallArgs<Ops[K]>];
/** The request body operation `K` takes. */
export type BodyOf<K extends ManagementOperation> = BodyIn<Ops[K]>;
/** What operation `K` answers on success, as read. */
export type AnswerOf<K extends ManagementOperation> = AnswerOut<SuccessAnswer<Ops[K]>>;

/** The operations that answer a page of a list (they declare `items`). */
export type PagedOperation = {
  [K in ManagementOperation]: Ops[K] extends { items: string } ? K : never;
}[ManagementOperation];
/** An item of paged operation `K`'s list. */
export type ItemOf<K extends PagedOperation> = AnswerOf<K>[Ops[K]['items'] &
  keyof AnswerOf<K>] extends readonly (infer E)[]
  ? E
  : never;
/** A page of paged operation `K`: its items and the cursor to the next (null: the last page). */
export function pageItems<K extends PagedOperation>(name: K, answer: AnswerOf<K>): ItemOf<K>[] {
  const field = MANAGEMENT[name].items;
  return (answer as Record<string, unknown>)[field] as ItemOf<K>[];
}

/** How a request is sent: the global `fetch`, or one that trusts a CA of its own (./trusting-fetch.ts). */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** An operation's answer that is not a success: its status, the API's message and the field at fault. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The method and the URL path (with its query) of a call to operation `name`. */
export function requestOf<K extends ManagementOperation>(
  name: K,
  args: ArgsOf<K>[0],
): { method: string; path: string; body?: string } {
  const op: Operation = MANAGEMENT[name];
  const {
    params = {},
    body,
    query = {},
  } = (args ?? {}) as {
    params?: Record<string, string>;
    body?: unknown;
    query?: Record<string, string | number | boolean | undefined>;
  };
  const path = op.path.replace(/:(\w+)/g, (_, p: string) => encodeURIComponent(params[p]));
  const search = new URLSearchParams(
    Object.entries(query).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]])),
  ).toString();
  return {
    method: op.method.toUpperCase(),
    path: search ? `${path}?${search}` : path,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
}

/**
 * Calls operation `name` at `origin` ('' in the browser: the page's own) with `headers` (the
 * credential), and answers what it declares for success, or throws an ApiError.
 */
export async function callOperation<K extends ManagementOperation>(
  send: { fetch: Fetch; origin: string; headers: Record<string, string> },
  name: K,
  ...[args]: ArgsOf<K>
): Promise<AnswerOf<K>> {
  const { method, path, body } = requestOf(name, args);
  const res = await send.fetch(`${send.origin}${path}`, {
    method,
    headers: { ...send.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body,
  });
  const answer = parse(await res.text());
  if (!res.ok)
    throw new ApiError(res.status, answer?.error ?? `${method} ${path} answered ${res.status}`, answer?.field);
  return answer as AnswerOf<K>;
}

/** An answer's JSON (undefined when empty, or when not JSON: a proxy's own error page). */
function parse(text: string): { error?: string; field?: string } | undefined {
  try {
    return text ? (JSON.parse(text) as { error?: string; field?: string }) : undefined;
  } catch {
    return undefined;
  }
}
