/**
 * Test deliveries (POST /api/robots/:id/test-delivery; src/deliveries/test-delivery.ts): a sample
 * or given body through the real start path, marked as a test in the log, the history and the run.
 */
import { newId } from '../src/domain/secrets';
import { SAMPLE_BODIES } from '../src/domain/samples';
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const sendTest = (robotId: string, body: Record<string, string> = {}) =>
  stack.api('POST', `/api/robots/${robotId}/test-delivery`, body);
const deliveriesWhen = (robotId: string, n: number) =>
  waitFor(
    () => stack.deliveries(robotId),
    (d) => d.length === n && d.every((x) => x.outcome !== 'processed' || x.runCount > 0),
  );

it("runs the app's sample body as real runs, marked as a test everywhere, and lists its fields", async () => {
  const robot = await stack.robotAtWork({ bodyFormat: 'csv', template: { hello: '{{trigger.name}}' } });
  const sent = await sendTest(robot.robotId);
  expect(sent.status).toBe(202);
  const [delivery] = await deliveriesWhen(robot.robotId, 1);
  expect(delivery).toMatchObject({
    id: sent.body.deliveryId,
    outcome: 'processed',
    runCount: 2, // the CSV sample's two rows
    test: true,
    verified: null,
    contentType: SAMPLE_BODIES.csv.contentType,
  });
  const runs = await waitFor(
    () => stack.runs(robot.robotId),
    (r) => r.length === 2 && r.every((x) => x.status === 'succeeded'),
  );
  expect(runs.every((r) => r.test === true)).toBe(true);
  const run = await stack.client.call('getRun', { params: { id: runs[0].id } });
  expect(run.test).toBe(true);
  expect(run.steps[0].output).toEqual({ hello: expect.stringMatching(/^(Ann|Bob)$/) });
  const fields = await stack.client.call('robotFields', { params: { id: robot.robotId } });
  expect(fields.fields.map((f: { path: string }) => f.path)).toEqual(['', 'name', 'email']);

  // An ordinary delivery is not marked.
  expect((await stack.send('POST', robot.webhookUrl, 'name\nCy')).status).toBe(200);
  const [ordinary] = await deliveriesWhen(robot.robotId, 2);
  expect(ordinary.test).toBeUndefined();
});

it('sends the body given, and the same body twice makes two deliveries (a test is never a duplicate)', async () => {
  const robot = await stack.robotAtWork({ template: { email: '{{trigger.customer.email}}' } });
  const body = JSON.stringify({ customer: { email: 'dana@example.com' } });
  const [a, b] = [await sendTest(robot.robotId, { body }), await sendTest(robot.robotId, { body })];
  expect([a.status, b.status]).toEqual([202, 202]);
  expect(a.body.deliveryId).not.toBe(b.body.deliveryId);
  await deliveriesWhen(robot.robotId, 2);
  const runs = await waitFor(
    () => stack.runs(robot.robotId),
    (r) => r.length === 2 && r.every((x) => x.status === 'succeeded'),
  );
  const run = await stack.client.call('getRun', { params: { id: runs[0].id } });
  expect(run.steps[0].output).toEqual({ email: 'dana@example.com' });
});

it('is held while the robot is paused and runs on resume; refused with 409 once stopped; 404 and 400', async () => {
  const robot = await stack.robotAtWork();
  expect((await stack.api('POST', `/api/robots/${robot.robotId}/pause`)).status).toBe(200);
  const sent = await sendTest(robot.robotId);
  expect(sent.status).toBe(202);
  expect(await stack.runs(robot.robotId)).toEqual([]);
  expect((await stack.api('POST', `/api/robots/${robot.robotId}/resume`)).status).toBe(200);
  const [delivery] = await deliveriesWhen(robot.robotId, 1);
  expect(delivery).toMatchObject({ id: sent.body.deliveryId, outcome: 'processed', test: true });

  expect((await stack.api('POST', `/api/robots/${robot.robotId}/stop`)).status).toBe(200);
  const refused = await sendTest(robot.robotId);
  expect(refused.status).toBe(409);
  expect(refused.body.error).toMatch(/not at work/);
  expect((await sendTest(newId())).status).toBe(404);
  expect((await sendTest(robot.robotId, { body: '' })).status).toBe(400);
  expect((await sendTest(robot.robotId, { other: 'x' })).status).toBe(400);
});
