/**
 * Routes declared once (src/contract/route.ts): every declaration is well formed, and a declared route,
 * mounted, asks who its caller is first, reads and checks its body and query, answers with its one
 * 2xx status, and records a write in the audit log before it is made (`started`, then `done` or
 * `failed`): a write the caller's role is short of as `refused` (403), no write made whose entry was
 * not taken, and a write that stood answered even when its end could not be recorded (review R7).
 * That the service serves exactly the declared routes is test/openapi.test.ts's.
 */
import Router from '@koa/router';
import Koa from 'koa';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OPERATIONS } from '../../src/runtime/operations';
import { MANAGEMENT_ROUTES } from '../../src/api/routes';
import { mountRoutes, routesFor, successStatus, type AuditedWrite, type RouteGuard } from '../../src/contract/route';
import { MANAGEMENT } from '../../src/contract/management';
import { ROBOT_TRANSITIONS, type RobotTransition } from '../../src/domain/robot-lifecycle';
import { conflict, errorHandler, requireAdminToken } from '../../src/core/http-errors';
import { silentLogger } from '../../src/core/log';
import { Throttle } from '../../src/core/throttle';
import { AUDIT_RECORD_RETRY } from '../../src/domain/limits';

it('declares each method and path once, each with exactly one 2xx answer', () => {
  const keys = OPERATIONS.map((op) => `${op.method} ${op.path}`);
  expect(new Set(keys).size).toBe(keys.length);
  for (const op of OPERATIONS) expect(() => successStatus(op)).not.toThrow();
});

it('puts every management route behind a credential, and nothing but the webhook URL outside', () => {
  expect(MANAGEMENT_ROUTES.every((r) => r.access !== 'open' && r.path.startsWith('/api/'))).toBe(true);
  const open = OPERATIONS.filter((op) => op.access === 'open').map((op) => `${op.method} ${op.path}`);
  expect(open.sort()).toEqual([
    'get /api/webhooks/:identifier/:token',
    'post /api/webhooks/:identifier/:token',
    'put /api/webhooks/:identifier/:token',
  ]);
});

it('lets viewers read only, and names the action of every write for the audit log', () => {
  for (const r of MANAGEMENT_ROUTES) {
    const write = r.method !== 'get';
    expect({ route: `${r.method} ${r.path}`, write, audited: r.audit !== undefined }).toEqual({
      route: `${r.method} ${r.path}`,
      write,
      audited: write,
    });
    if (write) expect(r.access).not.toBe('viewer');
  }
});

it('declares 409 on exactly the lifecycle transitions whose state table can refuse them', () => {
  for (const name of Object.keys(ROBOT_TRANSITIONS) as RobotTransition[]) {
    expect({ name, conflict: 409 in MANAGEMENT[name].answers }).toEqual({
      name,
      conflict: ROBOT_TRANSITIONS[name].refused !== '',
    });
  }
});

it('declares what every `:id` of a path names: the resource its path is under', () => {
  const kinds: Record<string, string> = {
    apps: 'app',
    connections: 'connection',
    robots: 'robot',
    runs: 'run',
    deliveries: 'delivery',
    keys: 'key',
    workspaces: 'workspace',
    issues: 'issue',
    'notification-channels': 'channel',
  };
  for (const op of OPERATIONS.filter((o) => o.path.includes('/:id'))) {
    const declared = op.workspaceFromPath ? 'workspace' : op.names;
    expect({ path: op.path, names: declared }).toEqual({ path: op.path, names: kinds[op.path.split('/')[2]] });
  }
});

const route = routesFor<RouteGuard>();
const thing = {
  operationId: 'rotateThing',
  method: 'post',
  path: '/api/things/:id/rotate',
  summary: 'test',
  access: 'editor',
  audit: 'thing.rotate',
  body: 'RotateToken',
  query: 'Page',
  answers: { 202: 'Replayed', 400: 'Error', 409: 'Error' },
} as const;

/** A robot of the route test's store: what `find` finds. */
interface Robot {
  _id: string;
  workspaceId: string;
}
const poke = {
  operationId: 'pokeRobot',
  method: 'post',
  path: '/api/robots/:id/poke',
  summary: 'test',
  access: 'editor',
  audit: 'robot.poke',
  names: 'robot',
  answers: { 202: 'Replayed', 404: 'Error' },
} as const;
const robotRoute = routesFor<RouteGuard, { robot: Robot }>();

it('checks a handler against its declared answer when it compiles', () => {
  // @ts-expect-error -- `thing` declares no `names`: its handler is handed nothing it names
  route(thing, ({ named }) => Promise.resolve({ deliveryId: String(named) }));
  // @ts-expect-error -- what `poke` names is a robot, which has no `name` here
  robotRoute(poke, ({ named }) => Promise.resolve({ deliveryId: named.name }));
  // @ts-expect-error -- the declared 202 answer is `Replayed` ({ deliveryId }), not a robot's fields
  route(thing, () => Promise.resolve({ name: 'not a delivery id' }));
  // @ts-expect-error -- the path has `id`, not `robotId`
  route(thing, ({ params }) => Promise.resolve({ deliveryId: params.robotId }));
  expect(route(thing, ({ params }) => Promise.resolve({ deliveryId: params.id })).path).toBe(thing.path);
});

describe('a mounted route', () => {
  const ADMIN = 'admin-token-for-the-route-test';
  let server: http.Server;
  let base: string;
  const VIEWER = 'a-viewer-key-for-the-route-test';
  const heard: unknown[] = [];
  /** The audit log as the route left it, entry by entry (its id is its place). */
  const recorded: Array<Omit<AuditedWrite, 'caller'> & { actor: unknown }> = [];
  /** The entry of the write as the handler found it: written before the write is made. */
  const atHandler: unknown[] = [];
  const unrecorded: unknown[] = [];
  /** How many of the next tries to record an entry, or to settle one, fail (the database not answering). */
  let failingRecords = 0;
  let failingSettles = 0;
  /** The robots `find` finds, and the reads it was asked for. */
  const robots: Record<string, Robot> = { r1: { _id: 'r1', workspaceId: 'w1' }, r2: { _id: 'r2', workspaceId: 'w2' } };
  const finds: string[] = [];

  beforeAll(async () => {
    const deps: RouteGuard = {
      identify: (ctx) => {
        if (ctx.get('authorization') === `Bearer ${VIEWER}`) {
          const actor = { kind: 'key' as const, keyId: 'k1', name: 'admin' };
          return Promise.resolve({ actor, workspaceId: 'w1', role: 'viewer', address: ctx.ip });
        }
        requireAdminToken(ctx, ADMIN, new Throttle('wrong tokens', 1000));
        return Promise.resolve({ actor: { kind: 'admin' }, workspaceId: 'w1', role: 'operator', address: ctx.ip });
      },
      recordWrite: ({ caller, action, resource, workspaceId, outcome }: AuditedWrite) => {
        if (failingRecords > 0) {
          failingRecords--;
          return Promise.reject(new Error('the database did not answer'));
        }
        recorded.push({ actor: caller.actor, action, resource, workspaceId, outcome });
        return Promise.resolve(String(recorded.length - 1));
      },
      settleWrite: (entryId, { outcome, resource }) => {
        if (failingSettles > 0) {
          failingSettles--;
          return Promise.reject(new Error('the database did not answer'));
        }
        Object.assign(recorded[Number(entryId)], { outcome, resource });
        return Promise.resolve();
      },
      unrecorded: (write, err) => unrecorded.push({ action: write.action, outcome: write.outcome, err: String(err) }),
      find: (what, id, caller) => {
        finds.push(`${what} ${id}`);
        const robot = what === 'robot' ? robots[id] : undefined;
        return Promise.resolve(robot?.workspaceId === caller.workspaceId ? robot : null);
      },
    };
    const router = new Router();
    mountRoutes(
      router,
      [
        route(thing, ({ params, body, query }) => {
          heard.push({ params, body, query });
          atHandler.push({ ...recorded.at(-1) });
          if (params.id === 'gone') return Promise.reject(conflict('the thing is gone'));
          return Promise.resolve({ deliveryId: `${params.id} ${body.graceHours} ${query.limit}` });
        }),
        robotRoute(poke, ({ named }) => {
          heard.push({ named });
          return Promise.resolve({ deliveryId: `poked ${named._id}` });
        }),
      ],
      deps,
    );
    const app = new Koa();
    app.use(errorHandler(silentLogger));
    app.use(router.routes());
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's handler catches its own errors
    server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const post = (path: string, body: unknown, token = ADMIN) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('answers its 2xx status with what the handler returned, its body and query read and defaulted', async () => {
    const res = await post('/api/things/t1/rotate?limit=3', {});
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ deliveryId: 't1 24 3' });
    expect(heard.at(-1)).toEqual({ params: { id: 't1' }, body: { graceHours: 24 }, query: { limit: 3 } });
    // Recorded before the write was made, then settled (review R7: no write stands unrecorded).
    expect(atHandler.at(-1)).toMatchObject({ action: 'thing.rotate', outcome: 'started' });
    expect(recorded.at(-1)).toEqual({
      actor: { kind: 'admin' },
      action: 'thing.rotate',
      resource: 'thing:t1',
      workspaceId: 'w1',
      outcome: 'done',
    });
  });

  it("records a write the caller's role is short of as refused, by the key, and answers 403 unrun", async () => {
    const before = heard.length;
    const res = await post('/api/things/t2/rotate', {}, VIEWER);
    expect(res.status).toBe(403);
    expect(heard.length).toBe(before);
    expect(recorded.at(-1)).toEqual({
      actor: { kind: 'key', keyId: 'k1', name: 'admin' },
      action: 'thing.rotate',
      resource: 'thing:t2',
      workspaceId: 'w1',
      outcome: 'refused',
    });
  });

  it('records a write its handler refused as failed', async () => {
    const res = await post('/api/things/gone/rotate', {});
    expect(res.status).toBe(409);
    expect(recorded.at(-1)).toMatchObject({ action: 'thing.rotate', resource: 'thing:gone', outcome: 'failed' });
  });

  it('makes a write once its entry is taken on a later try, and never one whose entry is not taken', async () => {
    const before = recorded.length;
    failingRecords = 2;
    expect((await post('/api/things/t3/rotate', {})).status).toBe(202);
    expect(recorded.length).toBe(before + 1);
    expect(recorded.at(-1)).toMatchObject({ action: 'thing.rotate', resource: 'thing:t3', outcome: 'done' });

    const heardBefore = heard.length;
    failingRecords = AUDIT_RECORD_RETRY.attempts;
    expect((await post('/api/things/t4/rotate', {})).status).toBe(500);
    expect(heard.length).toBe(heardBefore);
    expect(recorded.length).toBe(before + 1);
    expect(failingRecords).toBe(0);
  });

  it('answers a write that stood when its end is never recorded: its entry stays started, and is logged', async () => {
    failingSettles = AUDIT_RECORD_RETRY.attempts;
    expect((await post('/api/things/t5/rotate', {})).status).toBe(202);
    expect(recorded.at(-1)).toMatchObject({ action: 'thing.rotate', outcome: 'started' });
    expect(unrecorded).toEqual([
      { action: 'thing.rotate', outcome: 'done', err: 'Error: the database did not answer' },
    ]);
    expect(failingSettles).toBe(0);
  });

  it("hands the handler what the path names, read once in the caller's workspace; another's is 404", async () => {
    finds.length = 0;
    const res = await post('/api/robots/r1/poke', {});
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ deliveryId: 'poked r1' });
    expect(heard.at(-1)).toEqual({ named: robots.r1 });
    expect(finds).toEqual(['robot r1']);

    const before = heard.length;
    for (const id of ['r2', 'none']) {
      const refused = await post(`/api/robots/${id}/poke`, {});
      expect(refused.status).toBe(404);
      expect(await refused.json()).toMatchObject({ error: 'robot not found' });
      // Answered as for what does not exist; the write's entry says it failed.
      expect(recorded.at(-1)).toMatchObject({ action: 'robot.poke', resource: `robot:${id}`, outcome: 'failed' });
    }
    expect(heard.length).toBe(before);
    // A route that names nothing finds nothing.
    await post('/api/things/t1/rotate', {});
    expect(finds).toEqual(['robot r1', 'robot r2', 'robot none']);
  });

  it('refuses a wrong admin token (401) before the handler runs', async () => {
    const before = { heard: heard.length, recorded: recorded.length };
    const res = await post('/api/things/t1/rotate', {}, 'wrong');
    expect(res.status).toBe(401);
    expect({ heard: heard.length, recorded: recorded.length }).toEqual(before);
  });

  it('refuses a body its schema refuses (400, naming the field) before the handler runs', async () => {
    const before = heard.length;
    const res = await post('/api/things/t1/rotate', { graceHours: -1 });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { field?: string }).field).toBe('graceHours');
    expect(heard.length).toBe(before);
  });
});
