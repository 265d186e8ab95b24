/**
 * Workspaces, keys and the audit log (src/domain/workspaces.ts) on the real stack: a key of one
 * workspace finds nothing of another (every route of the OpenAPI document that names a resource,
 * generated from the route list, answers 404), lists show its own only, roles hold (a viewer's
 * write and an editor's key management answer 403), keys are shown once, revocable and record
 * their use, every write is in its workspace's audit log, and a store written before workspaces
 * moves to `default` at start.
 */
import { randomUUID } from 'node:crypto';
import { apiClient, robotAtWork, type ApiClient, type RobotAtWork } from '../src/client/api-client';
import { MANAGEMENT_ROUTES } from '../src/api/routes';
import type { BODIES } from '../src/contract/requests';
import { waitFor } from '../src/launch/os/wait';
import { connectDatabase } from '../src/storage/connect';
import { Keys } from '../src/workspaces/keys';
import { AuditLog } from '../src/workspaces/audit';
import { RobotDirectory } from '../src/workspaces/robot-directory';
import { startStack, withDatabase, type Stack } from './support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

/** A workspace made by the admin, with an owner's key and its client. */
interface Tenant {
  id: string;
  ownerKey: string;
  owner: ApiClient;
  keyOf(role: 'viewer' | 'editor' | 'owner', name?: string): Promise<{ id: string; key: string; client: ApiClient }>;
}

async function tenant(name: string): Promise<Tenant> {
  const { id } = await stack.client.json<{ id: string }>('POST', '/api/workspaces', { name });
  const keyOf = async (role: 'viewer' | 'editor' | 'owner', keyName = `${role} of ${name}`) => {
    const made = await stack.client.json<{ id: string; key: string }>('POST', `/api/workspaces/${id}/keys`, {
      name: keyName,
      role,
    });
    return { ...made, client: apiClient(stack.baseUrl, made.key) };
  };
  const owner = await keyOf('owner');
  return { id, ownerKey: owner.key, owner: owner.client, keyOf };
}

/** Everything workspace B has that a path can name. */
interface Holdings {
  robot: RobotAtWork;
  connectionId: string;
  runId: string;
  deliveryId: string;
  keyId: string;
}

async function holdings(t: Tenant): Promise<Holdings> {
  const robot = await robotAtWork(t.owner, { template: { n: '{{trigger.n}}' }, robotName: `Robot of ${t.id}` });
  expect((await stack.send('POST', robot.webhookUrl, '{"n":1}')).status).toBe(200);
  const { runs } = await waitFor(
    () => t.owner.json<{ runs: { id: string }[] }>('GET', `/api/robots/${robot.robotId}/runs`),
    (page) => page.runs.length === 1,
  );
  const { deliveries } = await t.owner.json<{ deliveries: { id: string }[] }>(
    'GET',
    `/api/robots/${robot.robotId}/deliveries`,
  );
  const connection = await t.owner.json<{ id: string }>('POST', '/api/connections', { provider: 'stripe', name: 'c' });
  const { id: keyId } = await t.keyOf('viewer', 'a key to be found');
  return { robot, connectionId: connection.id, runId: runs[0].id, deliveryId: deliveries[0].id, keyId };
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
    [a, b] = [await tenant('A'), await tenant('B')];
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
  });

  it("lists each workspace's own apps, connections and robots only", async () => {
    for (const [t, own, other] of [
      [a, ofA, ofB],
      [b, ofB, ofA],
    ] as const) {
      const robots = await t.owner.json<{ robots: { id: string }[] }>('GET', '/api/robots');
      expect(robots.robots.map((r) => r.id)).toEqual([own.robot.robotId]);
      const apps = await t.owner.json<{ apps: { id: string }[] }>('GET', '/api/apps');
      expect(apps.apps.map((x) => x.id)).toEqual([own.robot.appId]);
      const connections = await t.owner.json<{ connections: { id: string }[] }>('GET', '/api/connections');
      expect(connections.connections.map((x) => x.id)).toEqual([own.connectionId]);
      // Writes tried on the other's ids (the route-by-route probe) are in the log as `failed`, naming only what
      // the caller sent; nothing made or done there is.
      const { entries } = await t.owner.json<{ entries: Array<{ outcome: string }> }>('GET', '/api/audit?limit=200');
      const done = JSON.stringify(entries.filter((e) => e.outcome !== 'failed'));
      expect(done).toContain(own.robot.robotId);
      expect(done).not.toContain(other.robot.robotId);
    }
  });

  it("pages the workspace's robots newest first and searches them by name, in any case", async () => {
    const made = [];
    for (const name of ['Alpha one', 'alpha TWO', 'Beta']) {
      made.push(
        await a.owner.json<{ id: string }>('POST', '/api/robots', {
          name,
          trigger: { appId: ofA.robot.appId },
          steps: [{ name: 's', type: 'compose', template: {} }],
        }),
      );
    }
    const first = await a.owner.json<{ robots: { id: string }[]; nextCursor: string }>(
      'GET',
      '/api/robots?search=ALPHA&limit=1',
    );
    expect(first.robots.map((r) => r.id)).toEqual([made[1].id]);
    const second = await a.owner.json<{ robots: { id: string }[]; nextCursor: string | null }>(
      'GET',
      `/api/robots?search=ALPHA&limit=1&cursor=${encodeURIComponent(first.nextCursor)}`,
    );
    expect(second).toEqual({
      robots: [expect.objectContaining({ id: made[0].id })],
      nextCursor: null,
      prevCursor: expect.any(String),
      total: 2,
      offset: 1,
    });
    const all = await a.owner.json<{ robots: { id: string }[] }>('GET', '/api/robots');
    expect(all.robots.map((r) => r.id)).toEqual([made[2].id, made[1].id, made[0].id, ofA.robot.robotId]);
    // A robot renamed is found by its new name, by every receiver.
    await a.owner.json('PATCH', `/api/robots/${made[2].id}`, { name: 'Alpha three' });
    const other = apiClient(await stack.addReceiver(), a.ownerKey);
    const renamed = await other.json<{ robots: { id: string }[] }>('GET', '/api/robots?search=alpha');
    expect(renamed.robots.map((r) => r.id)).toEqual([made[2].id, made[1].id, made[0].id]);
    expect((await b.owner.json<{ robots: unknown[] }>('GET', '/api/robots?search=alpha')).robots).toEqual([]);
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
    const workspaces = await stack.client.json<{ workspaces: { id: string }[] }>('GET', '/api/workspaces');
    expect(workspaces.workspaces.map((w) => w.id)).toEqual(expect.arrayContaining(['default', a.id, b.id]));
  });

  it("answers 403 to a viewer's write and an editor's key management, and to a key on the operator's routes", async () => {
    const viewer = (await a.keyOf('viewer')).client;
    const editor = (await a.keyOf('editor')).client;
    expect((await viewer.request('GET', `/api/robots/${ofA.robot.robotId}`)).status).toBe(200);
    expect((await viewer.request('POST', `/api/robots/${ofA.robot.robotId}/pause`)).status).toBe(403);
    expect(
      (await viewer.request('POST', '/api/apps', { name: 'x', supportsInboundTrigger: true, bodyFormat: 'json' }))
        .status,
    ).toBe(403);
    expect((await editor.request('GET', `/api/workspaces/${a.id}/keys`)).status).toBe(403);
    expect((await editor.request('POST', `/api/workspaces/${a.id}/keys`, { name: 'k', role: 'owner' })).status).toBe(
      403,
    );
    expect((await editor.request('POST', `/api/robots/${ofA.robot.robotId}/pause`)).status).toBe(200);
    expect((await editor.request('POST', `/api/robots/${ofA.robot.robotId}/resume`)).status).toBe(200);
    for (const owner of [a.owner, editor]) {
      expect((await owner.request('POST', '/api/workspaces', { name: 'mine' })).status).toBe(403);
      expect((await owner.request('GET', '/api/workspaces')).status).toBe(403);
      expect((await owner.request('GET', '/api/codec')).status).toBe(403);
    }
    expect(await viewer.json('GET', '/api/me')).toMatchObject({ role: 'viewer', workspace: { id: a.id, name: 'A' } });
  });

  it('shows a key once, records its use, and refuses it once revoked or expired', async () => {
    const made = await a.owner.json<{ id: string; key: string }>('POST', `/api/workspaces/${a.id}/keys`, {
      name: 'script',
      role: 'editor',
    });
    expect(made.key).toMatch(/^whk_/);
    const client = apiClient(stack.baseUrl, made.key);
    expect((await client.request('GET', '/api/robots')).status).toBe(200);
    const listed = await a.owner.json<{ keys: Record<string, unknown>[] }>('GET', `/api/workspaces/${a.id}/keys`);
    const entry = listed.keys.find((k) => k.id === made.id)!;
    expect(JSON.stringify(listed)).not.toContain(made.key.slice(-43));
    expect(entry).toMatchObject({ name: 'script', role: 'editor', revokedAt: null, expiresAt: null });
    expect(entry.lastUsedAt).not.toBeNull();

    // A wrong secret for a real key id is no key.
    const forged = `${made.key.slice(0, -43)}${'A'.repeat(43)}`;
    expect((await apiClient(stack.baseUrl, forged).request('GET', '/api/robots')).status).toBe(401);

    expect((await a.owner.request('DELETE', `/api/keys/${made.id}`)).body).toMatchObject({
      revokedAt: expect.any(String),
    });
    expect((await client.request('GET', '/api/robots')).status).toBe(401);

    const expiring = await a.owner.json<{ key: string }>('POST', `/api/workspaces/${a.id}/keys`, {
      name: 'for an hour',
      role: 'viewer',
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const keys = new Keys(stack.models);
    expect(await keys.accepted(expiring.key)).not.toBeNull();
    expect(await keys.accepted(expiring.key, new Date(Date.now() + 3_600_001))).toBeNull();
  });

  it('records every write with who, what, which resource, when and from where, newest first, never a secret', async () => {
    const editor = await a.keyOf('editor', 'Ada');
    await editor.client.json('POST', `/api/robots/${ofA.robot.robotId}/pause`);
    await editor.client.json('POST', `/api/robots/${ofA.robot.robotId}/resume`);
    const rotated = await stack.api(
      'POST',
      `/api/robots/${ofA.robot.robotId}/trigger/rotate`,
      {},
      {
        'x-workspace-id': a.id,
      },
    );
    expect(rotated.status).toBe(200);
    const page = await a.owner.json<{ entries: Record<string, string>[] }>('GET', '/api/audit?limit=10');
    // The writes; reads of the live URL (`robot.read-url`, docs/workspaces.md) are recorded between them.
    const entries = page.entries.filter((e) => e.action !== 'robot.read-url').slice(0, 4);
    const ada = { kind: 'key', keyId: editor.id, name: 'Ada' };
    const admin = { kind: 'admin', keyId: null, name: null };
    const robot = `robot:${ofA.robot.robotId}`;
    expect(entries.map(({ actor, action, resource }) => ({ actor, action, resource }))).toEqual([
      { actor: admin, action: 'robot.rotate-token', resource: robot },
      { actor: ada, action: 'robot.resume', resource: robot },
      { actor: ada, action: 'robot.pause', resource: robot },
      { actor: admin, action: 'key.create', resource: `key:${editor.id}` },
    ]);
    expect(entries[0].address).toMatch(/127\.0\.0\.1/);
    expect(Date.parse(entries[0].at)).toBeGreaterThan(Date.now() - 60_000);
    const all = JSON.stringify(await a.owner.json('GET', '/api/audit?limit=200'));
    expect(all).not.toContain(a.ownerKey.slice(-43));
    expect(all).not.toContain(ofA.robot.webhookUrl.split('/').pop());
  });
});

describe('the audit log', () => {
  it('pages newest first to the oldest, hides what is past retention and sweeps it', async () => {
    const workspace = randomUUID();
    const log = new AuditLog(stack.models, 3_600_000);
    const caller = {
      actor: { kind: 'admin' as const },
      workspaceId: workspace,
      role: 'operator' as const,
      address: '::1',
    };
    for (let i = 1; i <= 120; i++) await log.record(caller, 'robot.pause', `robot:${i}`);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await log.page(workspace, 50, cursor);
      seen.push(...page.entries.map((e) => e.resource));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => `robot:${120 - i}`));

    // The first 30 entries turn two hours old: not shown, and swept by the next sweep.
    await stack.models.AuditEntry.updateMany(
      { _id: { $in: Array.from({ length: 30 }, (_, i) => `${workspace}:${i + 1}`) } },
      { $set: { at: new Date(Date.now() - 7_200_000) } },
    );
    const shown = [];
    for (let page = await log.page(workspace, 200); ;) {
      shown.push(...page.entries);
      if (!page.nextCursor) break;
      page = await log.page(workspace, 200, page.nextCursor);
    }
    expect(shown).toHaveLength(90);
    expect(await log.sweep(workspace)).toBe(30);
    expect(await stack.models.AuditEntry.countDocuments({ _id: `${workspace}:1` })).toBe(0);
    expect((await log.page(workspace, 200)).entries).toHaveLength(90);
    await log.record(caller, 'robot.stop', 'robot:121');
    expect((await log.page(workspace, 1)).entries.map((e) => e.resource)).toEqual(['robot:121']);
  });
});

describe('the migration to workspaces', () => {
  it('moves a store written before workspaces to `default`, once, and the service reads it as before', async () => {
    const uri = withDatabase(process.env.MONGODB_URI!, `before-workspaces-${Date.now()}`);
    const { db, models } = await connectDatabase(uri);
    try {
      // What 0.9 stored: apps, connections and robots without a workspace, no workspace, no mark.
      await models.Migration.deleteMany({});
      await models.Workspace.deleteMany({});
      const at = new Date('2026-11-01T00:00:00Z');
      await models.App.collection.insertOne({
        _id: 'app-09',
        name: 'Old app',
        supportsInboundTrigger: true,
        bodyFormat: 'json',
        verificationSealed: null,
        sender: null,
        dedup: null,
        createdAt: at,
      } as never);
      await models.Connection.collection.insertOne({
        _id: 'conn-09',
        provider: 'stripe',
        name: 'Old connection',
        signingSecretSealed: null,
        createdAt: at,
      } as never);
      await models.Robot.collection.insertOne({
        _id: 'robot-09',
        name: 'Old robot',
        state: 'draft',
        trigger: { kind: 'custom', appId: 'app-09', connectionId: null, identifier: null, tokenHash: null },
        steps: [{ name: 's', type: 'compose', templateJson: '{}' }],
        stepsVersion: 0,
        rulesJson: null,
        heldSince: null,
        createdAt: at,
      } as never);
    } finally {
      await db.close();
    }
    for (let start = 0; start < 2; start++) {
      const again = await connectDatabase(uri);
      try {
        for (const model of [again.models.App, again.models.Connection, again.models.Robot]) {
          const docs = await (model as typeof again.models.App).find().lean();
          expect(docs.map((d) => d.workspaceId)).toEqual(['default']);
        }
        expect(await again.models.Workspace.find().lean()).toEqual([
          expect.objectContaining({ _id: 'default', name: 'Default' }),
        ]);
        expect(await again.models.Migration.countDocuments()).toBe(1);
        // Listed in `default`'s directory, once: the robots page shows it.
        expect(await again.models.RobotListing.find().lean()).toEqual([
          expect.objectContaining({ _id: 'default:1', robotId: 'robot-09', name: 'Old robot' }),
        ]);
        expect((await new RobotDirectory(again.models).page('default', { limit: 50 })).ids).toEqual(['robot-09']);
      } finally {
        await again.db.close();
      }
    }
  });
});
