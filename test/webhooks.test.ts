/** The webhook receiver on the real stack: a sender POSTs or PUTs, a run appears. */
import { WorkflowNotFoundError } from '@temporalio/client';
import { freePort } from '../src/launch/os/ports';
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';
import http from 'node:http';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const template = {
  sku: '{{trigger.items[0].sku}}',
  quantity: '{{trigger.items[0].qty}}',
  greeting: 'Hello {{trigger.customer.name}}, {{trigger.items[0].qty}} item(s)',
  missing: '{{trigger.nothing.here}}',
  whole: '{{trigger}}',
};
const order = { customer: { name: 'Ann' }, items: [{ sku: 'A-1', qty: 2 }] };

it.each(['POST', 'PUT'])(
  '%s with a misleading Content-Type answers 200 with an empty body and makes a run with resolved values',
  async (method) => {
    const robot = await stack.robotAtWork({ template });
    const res = await stack.send(method, robot.webhookUrl, JSON.stringify(order), {
      'content-type': 'application/xml',
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');

    const [run] = await waitFor(
      () => stack.runs(robot.robotId),
      (runs) => runs[0]?.status === 'succeeded',
    );
    expect(run.trigger).toEqual(order);
    expect(run.steps).toEqual([
      {
        name: 'compose',
        status: 'succeeded',
        output: { sku: 'A-1', quantity: 2, greeting: 'Hello Ann, 2 item(s)', missing: '', whole: order },
      },
    ]);
  },
);

it('runs a single-run delivery inside its delivery workflow, under a readable workflow ID', async () => {
  const robot = await stack.robotAtWork();
  await stack.send('POST', robot.webhookUrl, '{"a":1}');
  const [run] = await waitFor(
    () => stack.runs(robot.robotId),
    (runs) => runs[0]?.status === 'succeeded',
  );
  const [delivery] = await stack.deliveries(robot.robotId);
  const identifier = new URL(robot.webhookUrl).pathname.split('/')[3];
  expect(delivery.workflowId).toMatch(new RegExp(`^delivery:${identifier}:body-hmac:[0-9a-f]{64}$`));
  const handle = stack.temporal.workflow.getHandle(delivery.workflowId);
  expect(await handle.result()).toEqual({ outcome: 'processed', runCount: 1, runStatus: 'succeeded' });
  await expect(stack.temporal.workflow.getHandle(`run:${run.id}`).describe()).rejects.toThrow(WorkflowNotFoundError);
});

it('starts a child workflow run:<runId> for each row of a multi-row CSV', async () => {
  const robot = await stack.robotAtWork({ bodyFormat: 'csv' });
  await stack.send('POST', robot.webhookUrl, 'a\n1\n2\n');
  const runs = await waitFor(
    () => stack.runs(robot.robotId),
    (r) => r.length === 2 && r.every((x) => x.status === 'succeeded'),
  );
  const [delivery] = await stack.deliveries(robot.robotId);
  expect(await stack.temporal.workflow.getHandle(delivery.workflowId).result()).toEqual({
    outcome: 'processed',
    runCount: 2,
  });
  for (const run of runs) {
    const child = await stack.temporal.workflow.getHandle(`run:${run.id}`).describe();
    expect(child).toMatchObject({
      type: 'runWorkflow',
      status: { name: 'COMPLETED' },
      parentExecution: { workflowId: delivery.workflowId },
    });
  }
});

it('keeps any JSON exactly as sent: dotted and $ keys, nested arrays, long strings, unicode', async () => {
  const robot = await stack.robotAtWork();
  const data = {
    'a.b': { $where: 1, $set: [[1, [2, [3]]], []] },
    $: null,
    '': 'empty key',
    long: 'x'.repeat(300_000),
    unicode: 'zażółć 🦊 \u0000 end',
    numbers: [0, -1.5, 1e21, 9007199254740991],
    nested: [[[{ 'k.k': [[true]] }]]],
  };
  expect((await stack.send('POST', robot.webhookUrl, JSON.stringify(data))).status).toBe(200);
  const [run] = await waitFor(
    () => stack.runs(robot.robotId),
    (runs) => runs[0]?.status === 'succeeded',
  );
  expect(run.trigger).toEqual(data);
  expect(run.steps[0].output).toEqual({ data });
});

it('accepts a JSON body that is not an object', async () => {
  const robot = await stack.robotAtWork({ template: { value: '{{trigger}}', first: '{{trigger[0]}}' } });
  await stack.send('POST', robot.webhookUrl, '[5, "x"]');
  const [run] = await waitFor(
    () => stack.runs(robot.robotId),
    (runs) => runs[0]?.status === 'succeeded',
  );
  expect(run.steps[0].output).toEqual({ value: [5, 'x'], first: 5 });
});

it('drops an empty body: 200, and no delivery or run', async () => {
  const robot = await stack.robotAtWork();
  const empty = await stack.send('POST', robot.webhookUrl, '');
  expect(empty.status).toBe(200);
  expect(empty.text).toBe('');
  // A later delivery is processed; by then the empty one would have shown up too.
  await stack.send('POST', robot.webhookUrl, '{"later":true}');
  const runs = await waitFor(
    () => stack.runs(robot.robotId),
    (r) => r[0]?.status === 'succeeded',
  );
  expect(runs.map((r) => r.trigger)).toEqual([{ later: true }]);
  expect(await stack.deliveries(robot.robotId)).toHaveLength(1);
});

describe('URLs that are not a working trigger answer 404 with one line saying so', () => {
  let url: URL;
  beforeAll(async () => {
    url = new URL((await stack.robotAtWork()).webhookUrl);
  });
  const withToken = (token: string) => url.href.replace(/[^/]+$/, token);

  it.each([
    ['a wrong token', () => withToken('A'.repeat(43))],
    ['a short token', () => withToken('abc')],
    ['an overlong token', () => withToken('A'.repeat(5000))],
    [
      'an unknown identifier',
      () => url.href.replace(/custom:[0-9a-f-]+/, 'custom:00000000-0000-4000-8000-000000000000'),
    ],
    ['a malformed identifier', () => url.href.replace(/custom:[0-9a-f-]+/, 'nope')],
  ])('%s', async (_what, make) => {
    const res = await stack.send('POST', make(), '{"a":1}');
    expect(res.status).toBe(404);
    expect(res.text).toBe('no webhook at this URL: it is unknown or its robot is stopped\n');
  });

  it('a robot that is not at work yet', async () => {
    const robot = await stack.robotAtWork();
    await stack.client.call('stop', { params: { id: robot.robotId } });
    expect((await stack.send('PUT', robot.webhookUrl, '{"a":1}')).status).toBe(404);
  });
});

it.each(['GET', 'DELETE', 'PATCH'])('%s answers 405 with Allow: POST, PUT', async (method) => {
  const robot = await stack.robotAtWork();
  const res = await stack.send(method, robot.webhookUrl);
  expect(res.status).toBe(405);
  expect(res.headers.get('allow')).toBe('POST, PUT');
});

it('answers 413 for a body over MAX_BODY_BYTES and starts nothing', async () => {
  const small = await startStack({ MAX_BODY_BYTES: '1024' });
  try {
    const robot = await small.robotAtWork();
    const res = await small.send('POST', robot.webhookUrl, JSON.stringify({ pad: 'x'.repeat(2000) }));
    expect(res.status).toBe(413);
    expect(res.text).toBe('body too large for this URL: nothing was stored\n');
    await small.send('POST', robot.webhookUrl, '{"fits":1}');
    const runs = await waitFor(
      async () => (await small.client.call('listRuns', { params: { id: robot.robotId } })).runs,
      (r) => r[0]?.status === 'succeeded',
    );
    expect(runs.map((r) => r.trigger)).toEqual([{ fits: 1 }]);
  } finally {
    await small.close();
  }
});

it('answers 503 with Retry-After, never 200, while Temporal is unreachable', async () => {
  const down = await startStack(
    { TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`, TEMPORAL_START_TIMEOUT_MS: '1500' },
    { worker: false },
  );
  try {
    const robot = await down.robotAtWork();
    const res = await down.send('POST', robot.webhookUrl, '{"a":1}');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.text).toBe('not stored: the service cannot take it now, send it again after Retry-After seconds\n');
    const health = await fetch(`${down.metricsUrl}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ temporal: 'unreachable', mongodb: 'ok' });
  } finally {
    await down.close();
  }
});

/** A POST whose headers have reached the receiver (it answered 100 Continue); `end` sends its body. */
async function postUnderWay(url: string, body: string) {
  const req = http.request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
  });
  const answered = new Promise<http.IncomingMessage>((resolve, reject) => {
    req.on('response', resolve);
    req.on('error', reject);
  });
  await new Promise<void>((resolve, reject) => {
    req.on('continue', resolve);
    req.on('error', reject);
    req.flushHeaders();
  });
  return { answered, end: () => req.end(body) };
}

it('answers a delivery under way when its receiver stops, and takes no new connection meanwhile', async () => {
  const robot = await stack.robotAtWork();
  const receiver = await stack.startReceiver();
  const url = receiver.url + new URL(robot.webhookUrl).pathname;
  const underWay = await postUnderWay(url, '{"under":"way"}');
  const closed = receiver.close();
  // A new sender is refused at once; the one under way finishes its body and gets its 200.
  await expect(fetch(url, { method: 'POST', body: '{"new":1}' })).rejects.toThrow();
  underWay.end();
  const res = await underWay.answered;
  expect(res.statusCode).toBe(200);
  res.resume();
  await closed;
  const runs = await waitFor(
    async () => (await stack.client.call('listRuns', { params: { id: robot.robotId } })).runs,
    (r) => r[0]?.status === 'succeeded',
  );
  expect(runs.map((r) => r.trigger)).toEqual([{ under: 'way' }]);
});
