/**
 * The management API as the tests, the fault tests and the bench call it: requests with the admin
 * token, a robot at work, and a robot's lists page by page. Imports nothing of the service.
 */

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

/** How a request is sent: the global `fetch`, or a test's that trusts a CA of its own. */
type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export function apiClient(
  baseUrl: string,
  adminToken: string,
  { fetch = globalThis.fetch }: { fetch?: Fetch } = {},
): ApiClient {
  const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const request = () =>
      fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    // The receiver closes a keep-alive connection idle for 5 s (src/receiver/connections.ts): a
    // client whose event loop stalled past its own, sooner, close may send on it as it goes. A read
    // is sent again once; a write never is (it may have been taken).
    const res = await request().catch((err: Error) => {
      const cause = (err.cause as Error | undefined)?.message ?? err.message;
      if (method === 'GET' && /other side closed|ECONNRESET|socket hang up/i.test(cause)) return request();
      throw err;
    });
    return { res, text: await res.text() };
  };
  const parse = (text: string): unknown => (text ? JSON.parse(text) : undefined);
  return {
    baseUrl,
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
interface RobotSpec {
  template: unknown;
  bodyFormat?: string;
  appName?: string;
  robotName?: string;
  stepName?: string;
  /** The app's signature verification (README, custom apps). */
  verification?: Record<string, unknown>;
}

/** Starts a robot with one compose step on a new custom app; returns its ids and webhook URL. */
export async function robotAtWork(
  api: ApiClient,
  { template, bodyFormat = 'json', appName = 'App', robotName = 'Robot', stepName = 's', verification }: RobotSpec,
): Promise<RobotAtWork> {
  const app = await api.json<{ id: string }>('POST', '/api/apps', {
    name: appName,
    supportsInboundTrigger: true,
    bodyFormat,
    ...(verification ? { verification } : {}),
  });
  const robot = await api.json<{ id: string }>('POST', '/api/robots', {
    name: robotName,
    trigger: { appId: app.id },
    steps: [{ name: stepName, type: 'compose', template }],
  });
  const started = await api.json<{ trigger: { card: { webhookUrl: string | null } } }>(
    'POST',
    `/api/robots/${robot.id}/start`,
  );
  const webhookUrl = started.trigger.card.webhookUrl;
  if (!webhookUrl) throw new Error(`robot ${robot.id} was started but has no webhook URL`);
  return { appId: app.id, robotId: robot.id, webhookUrl };
}

/** One page of a robot's runs or deliveries, as the API hands it out. */
type Page<T> = { runs?: T[]; deliveries?: T[]; nextCursor: string | null };

/**
 * Every page of a list (`/api/robots/:id/runs` or `/deliveries`), following `nextCursor`.
 * `check` sees each answer first (a test's assertion on it); an answer other than 2xx then fails.
 */
export async function pagesOf<T>(
  api: ApiClient,
  path: string,
  { limit = 1000, check }: { limit?: number; check?: (answer: ApiAnswer<unknown>) => void } = {},
): Promise<T[][]> {
  const pages: T[][] = [];
  let cursor: string | null = null;
  do {
    const answer: ApiAnswer<Page<T>> = await api.request<Page<T>>(
      'GET',
      `${path}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    check?.(answer);
    if (answer.status < 200 || answer.status >= 300)
      throw new Error(`GET ${path} answered ${answer.status}: ${JSON.stringify(answer.body)?.slice(0, 500)}`);
    pages.push(answer.body.runs ?? answer.body.deliveries ?? []);
    cursor = answer.body.nextCursor;
  } while (cursor);
  return pages;
}

/** Every item of a list (`/api/robots/:id/runs` or `/deliveries`), page by page. */
export async function allPages<T>(api: ApiClient, path: string, limit = 1000): Promise<T[]> {
  return (await pagesOf<T>(api, path, { limit })).flat();
}
