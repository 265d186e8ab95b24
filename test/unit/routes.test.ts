/**
 * Routes declared once (src/contract/route.ts): every declaration is well formed, and a declared route,
 * mounted, checks the admin token, reads and checks its body and query, and answers with its one
 * 2xx status. That the service serves exactly the declared routes is test/openapi.test.ts's.
 */
import Router from '@koa/router';
import Koa from 'koa';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OPERATIONS } from '../../src/runtime/operations';
import { MANAGEMENT_ROUTES } from '../../src/api/routes';
import { mountRoutes, routesFor, successStatus, type RouteGuard } from '../../src/contract/route';
import { MANAGEMENT } from '../../src/contract/management';
import { ROBOT_TRANSITIONS, type RobotTransition } from '../../src/domain/robot-lifecycle';
import { errorHandler } from '../../src/core/http-errors';
import { silentLogger } from '../../src/core/log';
import { Throttle } from '../../src/core/throttle';

it('declares each method and path once, each with exactly one 2xx answer', () => {
  const keys = OPERATIONS.map((op) => `${op.method} ${op.path}`);
  expect(new Set(keys).size).toBe(keys.length);
  for (const op of OPERATIONS) expect(() => successStatus(op)).not.toThrow();
});

it('puts every management route behind the admin token, and nothing but the webhook URL and codec key outside', () => {
  expect(MANAGEMENT_ROUTES.every((r) => r.admin && r.path.startsWith('/api/'))).toBe(true);
  const open = OPERATIONS.filter((op) => !op.admin).map((op) => `${op.method} ${op.path}`);
  expect(open.sort()).toEqual([
    'get /api/webhooks/:identifier/:token',
    'post /api/webhooks/:identifier/:token',
    'post /codec/:key/decode',
    'post /codec/:key/encode',
    'put /api/webhooks/:identifier/:token',
  ]);
});

it('declares 409 on exactly the lifecycle transitions whose state table can refuse them', () => {
  for (const name of Object.keys(ROBOT_TRANSITIONS) as RobotTransition[]) {
    expect({ name, conflict: 409 in MANAGEMENT[name].answers }).toEqual({
      name,
      conflict: ROBOT_TRANSITIONS[name].refused !== '',
    });
  }
});

const route = routesFor<RouteGuard>();
const thing = {
  method: 'post',
  path: '/api/things/:id/rotate',
  summary: 'test',
  admin: true,
  body: 'RotateToken',
  query: 'Page',
  answers: { 202: 'Replayed', 400: 'Error' },
} as const;

it('checks a handler against its declared answer when it compiles', () => {
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
  const heard: unknown[] = [];

  beforeAll(async () => {
    const deps: RouteGuard = { config: { adminToken: ADMIN }, authFailures: new Throttle('wrong tokens', 1000) };
    const router = new Router();
    mountRoutes(
      router,
      [
        route(thing, ({ params, body, query }) => {
          heard.push({ params, body, query });
          return Promise.resolve({ deliveryId: `${params.id} ${body.graceHours} ${query.limit}` });
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
  });

  it('refuses a wrong admin token (401) before the handler runs', async () => {
    const before = heard.length;
    const res = await post('/api/things/t1/rotate', {}, 'wrong');
    expect(res.status).toBe(401);
    expect(heard.length).toBe(before);
  });

  it('refuses a body its schema refuses (400, naming the field) before the handler runs', async () => {
    const before = heard.length;
    const res = await post('/api/things/t1/rotate', { graceHours: -1 });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { field?: string }).field).toBe('graceHours');
    expect(heard.length).toBe(before);
  });
});
