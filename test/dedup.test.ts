/** Duplicate deliveries make one run: Temporal refuses a second delivery workflow with the same ID. */
import { startStack, type Stack } from './support/stack';
import { robotAtWork } from '../src/client/api-client';
import { waitFor } from '../src/launch/os/wait';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

/**
 * Sends, in order, then waits until `expected` deliveries are recorded (a repeat is recorded too,
 * as `duplicate`) and their runs ended; returns them, those not duplicates (`kept`), and the runs'
 * trigger data, sorted (deliveries are prepared concurrently, in any order).
 */
async function sendAll(
  robot: { robotId: string; webhookUrl: string },
  sends: Array<[string, Record<string, string>?]>,
  expectedDeliveries: number,
) {
  for (const [body, headers] of sends)
    expect((await stack.send('POST', robot.webhookUrl, body, headers)).status).toBe(200);
  const deliveries = await waitFor(
    () => stack.deliveries(robot.robotId),
    (d) => d.length >= expectedDeliveries,
  );
  const runCount = deliveries.reduce((n, d) => n + (d.runCount ?? 0), 0);
  const runs = await waitFor(
    () => stack.runs(robot.robotId),
    (r) => r.length === runCount && r.every((x) => x.status !== 'running'),
  );
  const triggers = runs.map((r) => r.trigger).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return { deliveries, kept: deliveries.filter((d) => d.outcome !== 'duplicate'), triggers };
}

it('uses the Idempotency-Key header as the key: a second body with the same key makes no run', async () => {
  const robot = await stack.robotAtWork();
  const { triggers, deliveries, kept } = await sendAll(
    robot,
    [
      ['{"v":1}', { 'idempotency-key': 'order-1' }],
      ['{"v":2}', { 'idempotency-key': 'order-1' }],
      ['{"v":3}', { 'idempotency-key': 'order-2' }],
    ],
    3,
  );
  expect(triggers).toEqual([{ v: 1 }, { v: 3 }]);
  // Each key a digest of the value the sender chose, never the value itself (review N7).
  const keys = kept.map((d) => d.workflowId.split(':').slice(3).join(':'));
  expect(keys).toEqual([expect.stringMatching(/^idempotency-key-hmac:[0-9a-f]{64}$/), expect.any(String)]);
  expect(new Set(keys).size).toBe(2);
  expect(keys.join()).not.toContain('order-');
  // The repeat is in the log, naming the delivery it repeats, with no run.
  const duplicate = deliveries.find((d) => d.outcome === 'duplicate');
  const original = kept.find((d) => d.workflowId === duplicate.workflowId);
  expect(duplicate).toMatchObject({ reason: `duplicate of ${original.id}`, replayable: false });
  expect(duplicate.runCount).toBeUndefined();
});

it('uses the webhook-id header (Standard Webhooks) when there is no Idempotency-Key', async () => {
  const robot = await stack.robotAtWork();
  const { triggers } = await sendAll(
    robot,
    [
      ['{"v":1}', { 'webhook-id': 'msg_1' }],
      ['{"v":2}', { 'webhook-id': 'msg_1' }],
      ['{"v":3}', { 'webhook-id': 'msg_2' }],
    ],
    3,
  );
  expect(triggers).toEqual([{ v: 1 }, { v: 3 }]);
});

it('uses a SHA-256 of the body otherwise: the same body twice makes one run, another body another', async () => {
  const robot = await stack.robotAtWork();
  const { triggers } = await sendAll(robot, [['{"v":1}'], ['{"v":1}'], ['{"v":2}']], 3);
  expect(triggers).toEqual([{ v: 1 }, { v: 2 }]);
});

it('scopes the key to the trigger: the same key on two robots makes a run on each', async () => {
  const a = await stack.robotAtWork();
  const b = await stack.robotAtWork();
  expect((await sendAll(a, [['{"v":1}', { 'idempotency-key': 'shared' }]], 1)).triggers).toEqual([{ v: 1 }]);
  expect((await sendAll(b, [['{"v":1}', { 'idempotency-key': 'shared' }]], 1)).triggers).toEqual([{ v: 1 }]);
});

it('makes one run from twenty identical deliveries sent at once to two receivers', async () => {
  const robot = await stack.robotAtWork();
  const second = await stack.addReceiver();
  const urls = [robot.webhookUrl, robot.webhookUrl.replace(stack.baseUrl, second)];
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => stack.send('POST', urls[i % 2], '{"burst":true}')),
  );
  expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
  // A later, different delivery is processed; by then any repeat of the burst would show too.
  await stack.send('POST', robot.webhookUrl, '{"after":true}');
  const { triggers, kept } = await sendAll(robot, [], 21);
  expect(kept).toHaveLength(2);
  expect(triggers).toEqual([{ after: true }, { burst: true }]);
});

it('lets a delivery that failed to parse be followed by a genuine one with the same key', async () => {
  const robot = await stack.robotAtWork();
  await stack.send('POST', robot.webhookUrl, '{"broken":', { 'idempotency-key': 'k-1' });
  const [failed] = await waitFor(
    () => stack.deliveries(robot.robotId),
    (d) => d.length === 1,
  );
  expect(failed.outcome).toBe('failed');
  // Once the failed workflow has closed, the same key starts a new one.
  await waitFor(
    () => stack.temporal.workflow.getHandle(failed.workflowId).describe(),
    (d) => d.status.name === 'FAILED',
  );
  const { triggers } = await sendAll(robot, [['{"fixed":true}', { 'idempotency-key': 'k-1' }]], 2);
  expect(triggers).toEqual([{ fixed: true }]);
});

describe('dedup you choose (per app)', () => {
  const robotWith = async (dedup: Record<string, unknown>) => {
    const robot = await stack.robotAtWork();
    const res = await stack.api('PATCH', `/api/apps/${robot.appId}`, { dedup });
    expect(res.status).toBe(200);
    expect(res.body.dedup).toEqual(dedup);
    return robot;
  };

  it('a header the person names: the same id is one delivery whatever the body', async () => {
    const robot = await robotWith({ key: 'header', header: 'x-request-id' });
    const { triggers } = await sendAll(
      robot,
      [
        ['{"v":1}', { 'X-Request-Id': 'r-1' }],
        ['{"v":2}', { 'X-Request-Id': 'r-1' }],
        ['{"v":1}', { 'X-Request-Id': 'r-2' }],
      ],
      3,
    );
    expect(triggers).toEqual([{ v: 1 }, { v: 1 }]);
  });

  it('a JSON path in the body: the same event id is one delivery', async () => {
    const robot = await robotWith({ key: 'jsonPath', path: 'trigger.event.id' });
    const { triggers } = await sendAll(
      robot,
      [['{"event":{"id":"e1"},"n":1}'], ['{"event":{"id":"e1"},"n":2}'], ['{"event":{"id":"e2"},"n":3}']],
      3,
    );
    expect(triggers.map((t) => t.n)).toEqual([1, 3]);
  });

  it('a JSON path whose value is nested too deep: 200, keyed by the digest, failed by the parser (review N2)', async () => {
    const robot = await robotWith({ key: 'jsonPath', path: 'trigger.a' });
    const deep = `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const { deliveries } = await sendAll(robot, [[deep]], 1);
    expect(deliveries[0]).toMatchObject({ outcome: 'failed', error: expect.stringMatching(/nested deeper/) });
    expect(deliveries[0].workflowId).toMatch(/:body-hmac:/);
  });

  it('reads no key from a body before its signature verifies: a forged deep body is only rejected', async () => {
    const verification = { scheme: 'github', secret: 'a-github-secret-of-some-length' };
    const robot = await robotAtWork(stack.client, { template: {}, verification });
    const dedup = { key: 'jsonPath', path: 'trigger.a' };
    expect((await stack.api('PATCH', `/api/apps/${robot.appId}`, { dedup })).status).toBe(200);
    const deep = `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect((await stack.send('POST', robot.webhookUrl, deep)).status).toBe(400);
    const [rejected] = await waitFor(
      () => stack.deliveries(robot.robotId),
      (d) => d.length === 1,
    );
    expect(rejected).toMatchObject({ outcome: 'rejected', reason: 'missing X-Hub-Signature-256 header' });
  });

  it('none: every delivery runs, the same body too', async () => {
    const robot = await robotWith({ key: 'none' });
    const { triggers, kept } = await sendAll(robot, [['{"status":"down"}'], ['{"status":"down"}']], 2);
    expect(kept).toHaveLength(2);
    expect(triggers).toEqual([{ status: 'down' }, { status: 'down' }]);
  });

  it("the body's digest for a window: a repeat inside it is a duplicate, the same body after it runs again", async () => {
    const robot = await robotWith({ key: 'body', windowSeconds: 1 });
    const first = await sendAll(robot, [['{"status":"down"}']], 1);
    const startedAt = Date.parse(first.kept[0].receivedAt);
    // The window is a time: wait until it has passed since the first arrived.
    await waitFor(
      () => Promise.resolve(Date.now()),
      (now) => now > startedAt + 1500,
    );
    const again = await sendAll(robot, [['{"status":"down"}'], ['{"status":"down"}']], 3);
    expect(again.triggers).toEqual([{ status: 'down' }, { status: 'down' }]);
    expect(again.deliveries.map((d) => d.outcome).sort()).toEqual(['duplicate', 'processed', 'processed']);
  });

  it('refuses a choice the app cannot keep, naming the field', async () => {
    const robot = await stack.robotAtWork();
    const refused = async (body: Record<string, unknown>, appId = robot.appId) => {
      const res = await stack.api('PATCH', `/api/apps/${appId}`, body);
      expect(res.status).toBe(400);
      return res.body.field as string;
    };
    expect(await refused({ dedup: { key: 'header' } })).toBe('dedup.header');
    expect(await refused({ dedup: { key: 'jsonPath', path: 'event.id' } })).toBe('dedup.path');
    expect(await refused({ dedup: { key: 'body', windowSeconds: 72 * 3600 + 1 } })).toBe('dedup.windowSeconds');
    // A header GitHub does not sign could be changed on a captured request.
    const secret = 'a-github-secret-of-some-length';
    expect(
      await refused({ verification: { scheme: 'github', secret }, dedup: { key: 'header', header: 'x-id' } }),
    ).toBe('dedup.key');
    const csv = await stack.robotAtWork({ bodyFormat: 'csv' });
    expect(await refused({ dedup: { key: 'jsonPath', path: 'trigger.id' } }, csv.appId)).toBe('dedup.key');
    expect((await stack.client.call('getApp', { params: { id: robot.appId } })).dedup).toEqual({ key: 'auto' });
  });
});
