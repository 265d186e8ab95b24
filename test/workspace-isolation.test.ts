/**
 * Workspaces kept apart (src/domain/workspaces.ts) on the real stack: a key of one workspace finds
 * nothing of another (every route of the OpenAPI document that names a resource, generated from
 * the route list, answers 404, and changes nothing), lists, search and paging show its own only, a
 * robot on another workspace's app is refused, and the admin acts in the workspace it names.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiClient, robotAtWork, type RobotAtWork } from '../src/client/api-client';
import { MANAGEMENT_ROUTES } from '../src/api/routes';
import type { BODIES } from '../src/contract/requests';
import { waitFor } from '../src/launch/os/wait';
import { startStack, type Stack } from './support/stack';
import { tenant, type Tenant } from './support/workspaces';

let stack: Stack;
/** The notifications B's channel was sent, by type: its own issue's may come; A's test must not. */
const sentToB: string[] = [];
const channelReceiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  req.on('end', () => {
    sentToB.push((JSON.parse(body) as { type: string }).type);
    res.end();
  });
});
beforeAll(async () => {
  // B's notification channel is on loopback (no DNS): NOTIFY_ALLOW_PRIVATE_ADDRESSES lets it be made.
  stack = await startStack({ NOTIFY_ALLOW_PRIVATE_ADDRESSES: '1' });
  await new Promise<void>((resolve) => channelReceiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  channelReceiver.close();
  await stack.close();
});

/** Everything workspace B has that a path can name. */
interface Holdings {
  robot: RobotAtWork;
  connectionId: string;
  runId: string;
  deliveryId: string;
  keyId: string;
  issueId: string;
  channelId: string;
}

async function holdings(t: Tenant): Promise<Holdings> {
  const robot = await robotAtWork(t.owner, { template: { n: '{{trigger.n}}' }, robotName: `Robot of ${t.id}` });
  expect((await stack.send('POST', robot.webhookUrl, '{"n":1}')).status).toBe(200);
  const { runs } = await waitFor(
    () => t.owner.call('listRuns', { params: { id: robot.robotId } }),
    (page) => page.runs.length === 1,
  );
  const { deliveries } = await t.owner.call('listDeliveries', { params: { id: robot.robotId } });
  const connection = await t.owner.call('createConnection', { body: { provider: 'stripe', name: 'c' } });
  const { id: keyId } = await t.keyOf('viewer', 'a key to be found');
  // A request with a token that is not the URL's: counted in an issue (docs/issues.md).
  expect((await stack.send('POST', robot.webhookUrl.replace(/[^/]+$/, 'not-the-token'), '{"n":2}')).status).toBe(404);
  const { issues } = await waitFor(
    () => t.owner.call('listIssues', {}),
    (page) => page.issues.length === 1,
  );
  const ids = { runId: runs[0].id, deliveryId: deliveries[0].id, keyId, issueId: issues[0].id };
  const channel = await t.owner.call('createNotificationChannel', {
    body: { kind: 'webhook', url: `http://127.0.0.1:${(channelReceiver.address() as AddressInfo).port}/` },
  });
  return { robot, connectionId: connection.id, channelId: channel.id, ...ids };
}

/** An operation as the OpenAPI document describes it (the parts this test reads). */
interface Documented {
  security?: unknown[];
  requestBody?: { content: Record<string, { schema: { $ref?: string } } | undefined> };
}

/** A body each route's schema takes, by its name: a route must get past 400 to show it answers 404. */
const BODY: Partial<Record<keyof typeof BODIES, unknown>> = {
  UpdateApp: { name: 'renamed' },
  UpdateConnection: { name: 'renamed' },
  UpdateRobot: { name: 'renamed' },
  RotateToken: {},
  ConfirmHandshakeSecret: { fingerprint: 'sha256:0123456789abcdef' },
  ReplayMany: { outcome: 'processed' },
  TestDelivery: {},
  CreateKey: { name: 'k', role: 'owner' },
};

/** The path of a route, with what B has in the place of each parameter. */
function pathOf(path: string, b: Holdings, workspaceB: string): string {
  const id = /^\/api\/apps\//.test(path)
    ? b.robot.appId
    : /^\/api\/connections\//.test(path)
      ? b.connectionId
      : /^\/api\/robots\//.test(path)
        ? b.robot.robotId
        : /^\/api\/runs\//.test(path)
          ? b.runId
          : /^\/api\/deliveries\//.test(path)
            ? b.deliveryId
            : /^\/api\/workspaces\//.test(path)
              ? workspaceB
              : /^\/api\/keys\//.test(path)
                ? b.keyId
                : /^\/api\/issues\//.test(path)
                  ? b.issueId
                  : /^\/api\/notification-channels\//.test(path)
                    ? b.channelId
                    : null;
  if (id === null) throw new Error(`the test does not know what ${path} names: add it here`);
  return path.replace(':id', id).replace(':sha256', 'a'.repeat(64));
}

describe('two workspaces', () => {
  let a: Tenant;
  let b: Tenant;
  let ofA: Holdings;
  let ofB: Holdings;
  beforeAll(async () => {
    [a, b] = [await tenant(stack, 'A'), await tenant(stack, 'B')];
    ofA = await holdings(a);
    ofB = await holdings(b);
  });

  it("answers 404 to a key of A on every route that names anything of B's, and changes nothing of B", async () => {
    // Every operation of the served document that needs a credential and names something by its path.
    const document = await a.owner.json<{ paths: Record<string, Record<string, Documented>> }>(
      'GET',
      '/api/openapi.json',
    );
    const named = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        // An open operation says `security: []`.
        .filter(([, op]) => (op.security?.length ?? 0) > 0 && path.includes('{'))
        .map(([method, op]) => ({ method, path: path.replace(/\{(\w+)\}/g, ':$1'), op })),
    );
    expect(named.length).toBe(MANAGEMENT_ROUTES.filter((r) => r.path.includes(':')).length);
    const answers = [];
    for (const { method, path, op } of named) {
      const schema = op.requestBody?.content['application/json']?.schema.$ref?.split('/').pop();
      if (schema && !(schema in BODY)) throw new Error(`no body for ${schema}: add one to BODY`);
      const body = schema ? BODY[schema as keyof typeof BODY] : undefined;
      const res = await a.owner.request(method.toUpperCase(), pathOf(path, ofB, b.id), body);
      answers.push({ route: `${method} ${path}`, status: res.status });
    }
    expect(answers.filter((x) => x.status !== 404)).toEqual([]);
    // B's robot is as it was: at work, named as made; B's key is not revoked.
    const robot = await b.owner.json('GET', `/api/robots/${ofB.robot.robotId}`);
    expect(robot).toMatchObject({ name: `Robot of ${b.id}`, state: 'at_work' });
    const keys = await b.owner.json<{ keys: { id: string; revokedAt: string | null }[] }>(
      'GET',
      `/api/workspaces/${b.id}/keys`,
    );
    expect(keys.keys.find((k) => k.id === ofB.keyId)?.revokedAt).toBeNull();
    // B's channel is still there, never tested by A (its workspace's own issues may notify it).
    const { channels } = await b.owner.call('listNotificationChannels');
    expect(channels.map((c) => c.id)).toEqual([ofB.channelId]);
    expect(sentToB).not.toContain('test');
  });

  it("lists each workspace's own apps, connections and robots only", async () => {
    for (const [t, own, other] of [
      [a, ofA, ofB],
      [b, ofB, ofA],
    ] as const) {
      const robots = await t.owner.call('listRobots');
      expect(robots.robots.map((r) => r.id)).toEqual([own.robot.robotId]);
      const apps = await t.owner.call('listApps');
      expect(apps.apps.map((x) => x.id)).toEqual([own.robot.appId]);
      const connections = await t.owner.call('listConnections');
      expect(connections.connections.map((x) => x.id)).toEqual([own.connectionId]);
      // Writes tried on the other's ids (the route-by-route probe) are in the log as `failed`, naming only what
      // the caller sent; nothing made or done there is.
      const { entries } = await t.owner.call('auditLog', { query: { limit: 200 } });
      const done = JSON.stringify(entries.filter((e) => e.outcome !== 'failed'));
      expect(done).toContain(own.robot.robotId);
      expect(done).not.toContain(other.robot.robotId);
    }
  });

  it("pages the workspace's robots newest first and searches them by name, in any case", async () => {
    const made = [];
    for (const name of ['Alpha one', 'alpha TWO', 'Beta']) {
      made.push(
        await a.owner.call('createRobot', {
          body: { name, trigger: { appId: ofA.robot.appId }, steps: [{ name: 's', type: 'compose', template: {} }] },
        }),
      );
    }
    const first = await a.owner.call('listRobots', { query: { search: 'ALPHA', limit: 1 } });
    expect(first.robots.map((r) => r.id)).toEqual([made[1].id]);
    const second = await a.owner.call('listRobots', {
      query: { search: 'ALPHA', limit: 1, cursor: first.nextCursor! },
    });
    expect(second).toEqual({
      robots: [expect.objectContaining({ id: made[0].id })],
      nextCursor: null,
      prevCursor: expect.any(String),
      total: 2,
      offset: 1,
    });
    const all = await a.owner.call('listRobots');
    expect(all.robots.map((r) => r.id)).toEqual([made[2].id, made[1].id, made[0].id, ofA.robot.robotId]);
    // A robot renamed is found by its new name, by every receiver.
    await a.owner.call('editRobot', { params: { id: made[2].id }, body: { name: 'Alpha three' } });
    const other = apiClient(await stack.addReceiver(), a.ownerKey);
    const renamed = await other.call('listRobots', { query: { search: 'alpha' } });
    expect(renamed.robots.map((r) => r.id)).toEqual([made[2].id, made[1].id, made[0].id]);
    expect((await b.owner.call('listRobots', { query: { search: 'alpha' } })).robots).toEqual([]);
    expect((await a.owner.request('GET', '/api/robots?cursor=nonsense')).status).toBe(400);
  });

  it("refuses a robot on another workspace's app as on no app", async () => {
    const res = await a.owner.request('POST', '/api/robots', {
      name: 'borrowed',
      trigger: { appId: ofB.robot.appId },
      steps: [{ name: 's', type: 'compose', template: {} }],
    });
    expect(res).toMatchObject({ status: 400, body: { field: 'trigger.appId', error: 'trigger.appId: no such app' } });
  });

  it('lets the admin act in the workspace X-Workspace-Id names, and in `default` without it', async () => {
    const inB = await stack.api('GET', '/api/robots', undefined, { 'x-workspace-id': b.id });
    expect(inB.body.robots.map((r: { id: string }) => r.id)).toEqual([ofB.robot.robotId]);
    const inDefault = await stack.api('GET', '/api/robots');
    expect(inDefault.body.robots.map((r: { id: string }) => r.id)).not.toContain(ofB.robot.robotId);
    expect((await stack.api('GET', '/api/robots', undefined, { 'x-workspace-id': 'nope' })).status).toBe(404);
    const workspaces = await stack.client.call('listWorkspaces');
    expect(workspaces.workspaces.map((w) => w.id)).toEqual(expect.arrayContaining(['default', a.id, b.id]));
  });
});
