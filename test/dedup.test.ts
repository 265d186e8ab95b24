/** Duplicate deliveries make one run: Temporal refuses a second delivery workflow with the same ID. */
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/runtime/wait';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

/**
 * Sends, in order, then waits until `expected` deliveries are recorded and their runs ended;
 * returns the runs' trigger data, sorted (deliveries are prepared concurrently, in any order).
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
  return { deliveries, triggers };
}

it('uses the Idempotency-Key header as the key: a second body with the same key makes no run', async () => {
  const robot = await stack.robotAtWork();
  const { triggers, deliveries } = await sendAll(
    robot,
    [
      ['{"v":1}', { 'idempotency-key': 'order-1' }],
      ['{"v":2}', { 'idempotency-key': 'order-1' }],
      ['{"v":3}', { 'idempotency-key': 'order-2' }],
    ],
    2,
  );
  expect(triggers).toEqual([{ v: 1 }, { v: 3 }]);
  expect(deliveries.map((d) => d.workflowId.split(':').slice(3).join(':')).sort()).toEqual([
    'idempotency-key:order-1',
    'idempotency-key:order-2',
  ]);
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
    2,
  );
  expect(triggers).toEqual([{ v: 1 }, { v: 3 }]);
});

it('uses a SHA-256 of the body otherwise: the same body twice makes one run, another body another', async () => {
  const robot = await stack.robotAtWork();
  const { triggers } = await sendAll(robot, [['{"v":1}'], ['{"v":1}'], ['{"v":2}']], 2);
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
  const { triggers, deliveries } = await sendAll(robot, [], 2);
  expect(deliveries).toHaveLength(2);
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
