/**
 * A running service as the fault and cluster tests see it, through its management API with the
 * admin token: a robot at work, its counts, its runs and deliveries; and a stack started for a
 * test file's tests (or a describe's).
 */
import { allPages, apiClient, robotAtWork, type ApiClient, type RobotSpec } from '../../src/client/api-client';

/**
 * A stack started before the tests of the file (or of the `describe`) this is called in, and closed
 * after them. What it returns stands for the stack once started: reading it sooner (outside a test
 * or hook) fails saying so, as does a test run after the stack did not start.
 */
export function stackForTests<T extends { close(): Promise<void> }>(start: () => Promise<T>): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(() => started?.close());
  return new Proxy({} as T, {
    get(_, key) {
      if (!started) throw new Error(`the stack's ${String(key)} was read before it started (or it did not start)`);
      return Reflect.get(started, key);
    },
  });
}

/** What the fault and cluster tests ask a running service, through its API, with the admin token. */
export interface StackApi {
  /** The management API with the admin token (src/client/api-client.ts). */
  client: ApiClient;
  /** Management API call with the admin token: the body of a 2xx answer, and fails on any other. */
  api: ApiClient['json'];
  robotAtWork(bodyFormat?: RobotSpec['bodyFormat']): Promise<{ robotId: string; webhookUrl: string }>;
  /** Counts of a robot's deliveries, runs and finished runs, read through the API. */
  counts(
    robotId: string,
  ): Promise<{ deliveries: number; duplicates: number; runs: number; succeeded: number; failed: number }>;
}

export function stackApi(baseUrl: string, adminToken: string): StackApi {
  const client = apiClient(baseUrl, adminToken);
  const api = client.json;
  return {
    client,
    api,
    async robotAtWork(bodyFormat = 'json') {
      const { robotId, webhookUrl } = await robotAtWork(client, {
        bodyFormat,
        template: { id: '{{trigger.id}}' },
        appName: 'A',
        robotName: 'R',
      });
      return { robotId, webhookUrl };
    },
    async counts(robotId) {
      const robot = await api('GET', `/api/robots/${robotId}`);
      // Deliveries taken, repeats apart (a repeat is logged as `duplicate` of one of them).
      const { duplicate = 0, ...taken } = robot.deliveryCounts as Record<string, number>;
      const deliveries = Object.values(taken).reduce((a, b) => a + b, 0);
      return {
        deliveries,
        duplicates: duplicate,
        runs: robot.runCounts.total,
        succeeded: robot.runCounts.succeeded,
        failed: robot.runCounts.failed,
      };
    },
  };
}

/** Every run of a robot, page by page. */
export const allRuns = async (stack: StackApi, robotId: string) =>
  (await allPages(stack.client, 'listRuns', { params: { id: robotId } })) as {
    id: string;
    status: string;
    trigger: any;
    deliveryId: string;
  }[];

/** Every delivery of a robot, page by page. */
export const allDeliveries = (stack: StackApi, robotId: string) =>
  allPages(stack.client, 'listDeliveries', { params: { id: robotId } });
