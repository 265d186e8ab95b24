/** The management API over HTTP, against the real stack. */
import { startStack, type Stack } from './support/stack';
import { waitFor } from './support/wait';

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
    expect(wrong.body).toEqual({ error: 'missing or wrong admin token' });
  });

  it('serves /healthz without a token and reports both servers', async () => {
    const res = await fetch(`${stack.baseUrl}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ temporal: 'ok', mongodb: 'ok' });
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
    expect((await stack.api('GET', `/api/apps/${res.body.id}`)).body.id).toBe(res.body.id);
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
    const app = await stack.api('POST', '/api/apps', { name: 'A', supportsInboundTrigger: true, ...appOverrides });
    return stack.api('POST', '/api/robots', {
      name: 'R',
      trigger: { appId: app.body.id },
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
    const app = await stack.api('POST', '/api/apps', { name: 'A', supportsInboundTrigger: true });
    const res = await stack.api('POST', '/api/robots', {
      name: 'R',
      trigger: { appId: app.body.id },
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

    const stopped = await stack.api('POST', `/api/robots/${robot.body.id}/stop`);
    expect(stopped.body.state).toBe('stopped');
    expect((await stack.send('POST', url, '{"name":"x"}')).status).toBe(404);

    const again = await stack.api('POST', `/api/robots/${robot.body.id}/start`);
    expect(again.body.trigger.card.webhookUrl).toBe(url);
    expect((await stack.send('POST', url, '{"name":"x"}')).status).toBe(200);
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
        () => stack.api('GET', `/api/robots/${robot.robotId}`),
        (r) => r.body.runCounts.succeeded === n,
      );
    }
    const first = await stack.api('GET', `/api/robots/${robot.robotId}/runs?limit=2`);
    expect(first.body.runs.map((r: any) => r.trigger.n)).toEqual([3, 2]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await stack.api('GET', `/api/robots/${robot.robotId}/runs?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.runs.map((r: any) => r.trigger.n)).toEqual([1]);
    expect(second.body.nextCursor).toBeNull();

    // The history lists summaries; the run itself has its steps.
    const run = first.body.runs[0];
    expect(run).toEqual({
      id: expect.any(String),
      robotId: robot.robotId,
      deliveryId: expect.any(String),
      status: 'succeeded',
      trigger: { n: 3 },
      createdAt: expect.any(String),
      finishedAt: expect.any(String),
    });
    const whole = (await stack.api('GET', `/api/runs/${run.id}`)).body;
    expect(whole).toMatchObject({ ...run, steps: [{ name: 'compose', status: 'succeeded', output: { n: 3 } }] });
    const delivery = (await stack.api('GET', `/api/deliveries/${run.deliveryId}`)).body;
    expect(delivery).toMatchObject({
      id: run.deliveryId,
      outcome: 'processed',
      runCount: 1,
      receivedAt: run.createdAt,
    });
    const counts = (await stack.api('GET', `/api/robots/${robot.robotId}`)).body.runCounts;
    expect(counts).toEqual({ total: 3, running: 0, succeeded: 3, failed: 0 });
  });

  it.each(['limit=0', 'limit=1001', 'limit=abc', 'cursor=not-a-cursor'])('rejects ?%s with 400', async (query) => {
    const robot = await stack.robotAtWork();
    const res = await stack.api('GET', `/api/robots/${robot.robotId}/runs?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(query.split('=')[0]);
  });
});
