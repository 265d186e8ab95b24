/** The management API over HTTP, against the real stack. */
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

describe('authentication', () => {
  it('answers 401 without the admin token or with a wrong one', async () => {
    expect((await stack.api('GET', '/api/apps/x', undefined, { authorization: '' })).status).toBe(401);
    const wrong = await stack.api('GET', '/api/apps/x', undefined, { authorization: 'Bearer wrong-token' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({
      error: 'missing or wrong credential: the admin token or a key that is neither revoked nor expired',
    });
  });

  it('serves /healthz and /metrics on the metrics port only, never on the senders’ port', async () => {
    const res = await fetch(`${stack.metricsUrl}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ temporal: 'ok', mongodb: 'ok' });
    expect((await fetch(`${stack.metricsUrl}/metrics`)).status).toBe(200);
    for (const route of ['/healthz', '/metrics']) expect((await fetch(`${stack.baseUrl}${route}`)).status).toBe(404);
  });

  it('serves the OpenAPI document behind the admin token only', async () => {
    expect((await fetch(`${stack.baseUrl}/api/openapi.json`)).status).toBe(401);
    expect((await stack.api('GET', '/api/openapi.json')).body.openapi).toBe('3.1.0');
  });

  it('answers 429 with Retry-After to a client past its wrong tokens for the minute, but never to the right one', async () => {
    const other = await stack.addReceiver(); // its own count, so the other tests keep theirs
    const wrong = () => fetch(`${other}/api/apps`, { headers: { authorization: 'Bearer wrong-token-xxxxxxxx' } });
    for (let i = 0; i < stack.config.throttles.authFailuresPerMinute; i++) expect((await wrong()).status).toBe(401);
    const refused = await wrong();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const right = await fetch(`${other}/api/apps`, { headers: { authorization: `Bearer ${stack.config.adminToken}` } });
    // Compared first: whoever shares the admin's address cannot lock the admin out (review N4).
    expect(right.status).toBe(200);
    // Counted per receiver process: the stack's first receiver still answers the same address.
    expect((await stack.api('GET', '/api/apps')).status).toBe(200);
  });

  it('sends the browser safety headers on the API and the dashboard, and keeps no API answer', async () => {
    for (const res of [await fetch(`${stack.baseUrl}/api/apps`), await fetch(`${stack.baseUrl}/`)]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
    expect((await fetch(`${stack.baseUrl}/api/apps`)).headers.get('cache-control')).toBe('no-store');
  });
});

describe('apps', () => {
  it('creates an app with json as the default body format', async () => {
    const res = await stack.api('POST', '/api/apps', { name: 'Shop', supportsInboundTrigger: true });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(String),
      name: 'Shop',
      supportsInboundTrigger: true,
      bodyFormat: 'json',
    });
    expect((await stack.client.call('getApp', { params: { id: res.body.id } })).id).toBe(res.body.id);
  });

  it.each([
    [{ supportsInboundTrigger: true }, 'name'],
    [{ name: 'A', supportsInboundTrigger: true, bodyFormat: 'yaml' }, 'bodyFormat'],
    [{ name: 'A', supportsInboundTrigger: 'yes' }, 'supportsInboundTrigger'],
    [{ name: 'A', supportsInboundTrigger: true, colour: 'red' }, 'colour'],
  ])('rejects %j with 400 naming %s', async (body, field) => {
    const res = await stack.api('POST', '/api/apps', body);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const res = await fetch(`${stack.baseUrl}/api/apps`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.config.adminToken}` },
      body: '{not json',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'body: invalid JSON', field: 'body' });
  });

  it('answers 404 for an unknown app', async () => {
    expect((await stack.api('GET', '/api/apps/nope')).status).toBe(404);
  });
});

describe('robots', () => {
  async function draftRobot(appOverrides: object = {}) {
    const body = { name: 'A', supportsInboundTrigger: true, ...appOverrides };
    const app = await stack.client.call('createApp', { body });
    return stack.api('POST', '/api/robots', {
      name: 'R',
      trigger: { appId: app.id },
      steps: [{ name: 'greet', type: 'compose', template: { text: 'Hello {{trigger.name}}' } }],
    });
  }

  it('creates a draft robot with no webhook URL yet', async () => {
    const res = await draftRobot();
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ state: 'draft', trigger: { card: { webhookUrl: null } } });
    expect(res.body.steps).toEqual([{ name: 'greet', type: 'compose', template: { text: 'Hello {{trigger.name}}' } }]);
  });

  it('rejects a robot whose app does not support inbound triggers, or does not exist', async () => {
    const noInbound = await draftRobot({ supportsInboundTrigger: false });
    expect(noInbound.status).toBe(400);
    expect(noInbound.body.field).toBe('trigger.appId');
    const missing = await stack.api('POST', '/api/robots', { name: 'R', trigger: { appId: 'nope' }, steps: [] });
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe('trigger.appId');
  });

  it('rejects a step of an unknown type with 400 naming the field', async () => {
    const app = await stack.client.call('createApp', { body: { name: 'A', supportsInboundTrigger: true } });
    const res = await stack.api('POST', '/api/robots', {
      name: 'R',
      trigger: { appId: app.id },
      steps: [{ name: 's', type: 'email', template: 1 }],
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('steps.0.type');
  });

  it('generates the URL and token when the robot is put to work, and keeps them across stop and start', async () => {
    const robot = await draftRobot();
    const started = await stack.api('POST', `/api/robots/${robot.body.id}/start`);
    expect(started.status).toBe(200);
    expect(started.body.state).toBe('at_work');
    const url: string = started.body.trigger.card.webhookUrl;
    const m = new RegExp(`^${stack.baseUrl}/api/webhooks/(custom:[0-9a-f-]{36})/([A-Za-z0-9_-]+)$`).exec(url);
    expect(m).not.toBeNull();
    expect(m![2].length).toBeGreaterThanOrEqual(43); // 32 bytes, base64url

    const stopped = await stack.client.call('stop', { params: { id: robot.body.id } });
    expect(stopped.state).toBe('stopped');
    expect((await stack.send('POST', url, '{"name":"x"}')).status).toBe(404);

    const again = await stack.client.call('start', { params: { id: robot.body.id } });
    expect(again.trigger.card?.webhookUrl).toBe(url);
    expect((await stack.send('POST', url, '{"name":"x"}')).status).toBe(200);
  });

  it('lists robots without their webhook URLs: a URL, a credential, is read one robot at a time', async () => {
    const robot = await stack.robotAtWork();
    const { robots } = await stack.client.call('listRobots');
    const listed = robots.find((r: { id: string }) => r.id === robot.robotId)!;
    expect(listed.trigger.card).toBeUndefined();
    expect(JSON.stringify(robots)).not.toContain(new URL(robot.webhookUrl).pathname.split('/').pop());
    expect((await stack.client.call('getRobot', { params: { id: robot.robotId } })).trigger.card?.webhookUrl).toBe(
      robot.webhookUrl,
    );
  });

  it('gives every robot its own URL', async () => {
    const a = await stack.robotAtWork();
    const b = await stack.robotAtWork();
    expect(a.webhookUrl).not.toBe(b.webhookUrl);
  });

  it('answers 404 for unknown robots and runs', async () => {
    for (const path of ['/api/robots/nope', '/api/robots/nope/runs', '/api/runs/nope']) {
      expect((await stack.api('GET', path)).status).toBe(404);
    }
    expect((await stack.api('POST', '/api/robots/nope/start')).status).toBe(404);
  });
});

describe('runs', () => {
  it('lists runs newest first in pages, with counts on the robot', async () => {
    const robot = await stack.robotAtWork({ template: { n: '{{trigger.n}}' } });
    for (const n of [1, 2, 3]) {
      expect((await stack.send('POST', robot.webhookUrl, JSON.stringify({ n }))).status).toBe(200);
      // One at a time, so that creation order is the order sent.
      await waitFor(
        () => stack.client.call('getRobot', { params: { id: robot.robotId } }),
        (r) => r.runCounts?.succeeded === n,
      );
    }
    const params = { id: robot.robotId };
    const first = await stack.client.call('listRuns', { params, query: { limit: 2 } });
    expect(first.runs.map((r: any) => r.trigger.n)).toEqual([3, 2]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await stack.client.call('listRuns', { params, query: { limit: 2, cursor: first.nextCursor! } });
    expect(second.runs.map((r: any) => r.trigger.n)).toEqual([1]);
    expect(second.nextCursor).toBeNull();

    // The history lists summaries; the run itself has its steps.
    const run = first.runs[0];
    expect(run).toEqual({
      id: expect.any(String),
      robotId: robot.robotId,
      deliveryId: expect.any(String),
      status: 'succeeded',
      trigger: { n: 3 },
      createdAt: expect.any(String),
      finishedAt: expect.any(String),
    });
    const whole = await stack.client.call('getRun', { params: { id: run.id } });
    expect(whole).toMatchObject({ ...run, steps: [{ name: 'compose', status: 'succeeded', output: { n: 3 } }] });
    const delivery = await stack.client.call('getDelivery', { params: { id: run.deliveryId } });
    expect(delivery).toMatchObject({
      id: run.deliveryId,
      outcome: 'processed',
      runCount: 1,
      receivedAt: run.createdAt,
    });
    const counts = (await stack.client.call('getRobot', { params: { id: robot.robotId } })).runCounts;
    expect(counts).toEqual({ total: 3, running: 0, succeeded: 3, failed: 0 });
  });

  it.each(['limit=0', 'limit=1001', 'limit=abc', 'cursor=not-a-cursor'])('rejects ?%s with 400', async (query) => {
    const robot = await stack.robotAtWork();
    const res = await stack.api('GET', `/api/robots/${robot.robotId}/runs?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(query.split('=')[0]);
  });
});
