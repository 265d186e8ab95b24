/**
 * The management API as the tests, the fault tests and the bench call it: operations called by name
 * with the admin token (./operations.ts, as the dashboard calls them), a robot at work, and every
 * page of a list. `request` and `json` send what the contract would not let `call` send: a test's
 * malformed request, a path of its own.
 */
import type { ManagementOperation } from '../contract/management';
import {
  callOperation,
  pageItems,
  requestOf,
  type AnswerOf,
  type ArgsOf,
  type BodyOf,
  type Fetch,
  type ItemOf,
  type PagedOperation,
} from './operations';

/** An answer's status and its body parsed as JSON (undefined when empty). */
interface ApiAnswer<T> {
  status: number;
  body: T;
}

/**
 * A client of one service's management API. Answers are typed `any` unless a type is given:
 * tests read them as plain JSON and assert their shape.
 */
export interface ApiClient {
  baseUrl: string;
  /** Operation `name` with the admin token: its declared success answer, else an ApiError. */
  call<K extends ManagementOperation>(name: K, ...args: ArgsOf<K>): Promise<AnswerOf<K>>;
  /** Any answer, with its status. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read answers as plain JSON (above)
  request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiAnswer<T>>;
  /** The body of a 2xx answer; any other fails with the method, path, status and (the start of) the body. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as `request`
  json<T = any>(method: string, path: string, body?: unknown): Promise<T>;
}

export function apiClient(
  baseUrl: string,
  adminToken: string,
  { fetch = globalThis.fetch }: { fetch?: Fetch } = {},
): ApiClient {
  // The receiver closes a keep-alive connection idle for 5 s (src/receiver/connections.ts): a
  // client whose event loop stalled past its own, sooner, close may send on it as it goes. A read
  // is sent again once; a write never is (it may have been taken).
  const resending: Fetch = (url, init) =>
    fetch(url, init).catch((err: Error) => {
      const cause = (err.cause as Error | undefined)?.message ?? err.message;
      if (init.method === 'GET' && /other side closed|ECONNRESET|socket hang up/i.test(cause)) return fetch(url, init);
      throw err;
    });
  const authorization = `Bearer ${adminToken}`;
  const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await resending(`${baseUrl}${path}`, {
      method,
      headers: { authorization, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { res, text: await res.text() };
  };
  const parse = (text: string): unknown => (text ? JSON.parse(text) : undefined);
  return {
    baseUrl,
    call: (name, ...args) =>
      callOperation({ fetch: resending, origin: baseUrl, headers: { authorization } }, name, ...args),
    async request<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
      const { res, text } = await send(method, path, body, headers);
      return { status: res.status, body: parse(text) as T };
    },
    async json<T>(method: string, path: string, body?: unknown) {
      const { res, text } = await send(method, path, body);
      if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
      return parse(text) as T;
    },
  };
}

export interface RobotAtWork {
  appId: string;
  robotId: string;
  webhookUrl: string;
}

/** A new custom app and a started robot on it with one compose step. */
/** A compose step's template, as the API takes it. */
type Template = Extract<NonNullable<BodyOf<'createRobot'>['steps']>[number], { type: 'compose' }>['template'];

export interface RobotSpec {
  template: Template;
  bodyFormat?: BodyOf<'createApp'>['bodyFormat'];
  appName?: string;
  robotName?: string;
  stepName?: string;
  /** The app's signature verification (README, custom apps). */
  verification?: BodyOf<'createApp'>['verification'];
}

/** Starts a robot with one compose step on a new custom app; returns its ids and webhook URL. */
export async function robotAtWork(
  api: ApiClient,
  { template, bodyFormat = 'json', appName = 'App', robotName = 'Robot', stepName = 's', verification }: RobotSpec,
): Promise<RobotAtWork> {
  const app = await api.call('createApp', {
    body: {
      name: appName,
      supportsInboundTrigger: true,
      bodyFormat,
      ...(verification ? { verification } : {}),
    },
  });
  const robot = await api.call('createRobot', {
    body: { name: robotName, trigger: { appId: app.id }, steps: [{ name: stepName, type: 'compose', template }] },
  });
  const started = await api.call('start', { params: { id: robot.id } });
  const webhookUrl = started.trigger.card?.webhookUrl;
  if (!webhookUrl) throw new Error(`robot ${robot.id} was started but has no webhook URL`);
  return { appId: app.id, robotId: robot.id, webhookUrl };
}

/**
 * Every page of paged operation `name` (it declares its `items`), following `nextCursor`. `check`
 * sees each answer first (a test's assertion on it); an answer other than 2xx then fails.
 */
export async function pagesOf<K extends PagedOperation>(
  api: ApiClient,
  name: K,
  args: ArgsOf<K>[0],
  { limit = 1000, check }: { limit?: number; check?: (answer: ApiAnswer<unknown>) => void } = {},
): Promise<ItemOf<K>[][]> {
  const pages: ItemOf<K>[][] = [];
  let cursor: string | null = null;
  do {
    const query = { ...(args as { query?: object })?.query, limit, ...(cursor ? { cursor } : {}) };
    const { method, path } = requestOf(name, { ...args, query });
    const answer: ApiAnswer<AnswerOf<K> & { nextCursor: string | null }> = await api.request(method, path);
    check?.(answer);
    if (answer.status < 200 || answer.status >= 300)
      throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)?.slice(0, 500)}`);
    pages.push(pageItems(name, answer.body));
    cursor = answer.body.nextCursor;
  } while (cursor);
  return pages;
}

/** Every item of paged operation `name`, page by page. */
export async function allPages<K extends PagedOperation>(
  api: ApiClient,
  name: K,
  args: ArgsOf<K>[0],
  limit = 1000,
): Promise<ItemOf<K>[]> {
  return (await pagesOf(api, name, args, { limit })).flat();
}
