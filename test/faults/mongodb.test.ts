/** MongoDB is stopped for 20 seconds under load: activities retry and every run is stored once. */
import { waitFor } from '../../src/runtime/wait';
import { expectExactlyOneRunEach, range, sendDeliveries, startFaultStack, type FaultStack } from './fault-stack';

let stack: FaultStack;
beforeAll(async () => {
  stack = await startFaultStack();
});
afterAll(() => stack?.close());

it("stores every accepted delivery's run exactly once after a 20-second outage, and answers only 200 or 503 during it", async () => {
  const robot = await stack.robotAtWork();
  const ids = range(0, 1500);
  const sending = sendDeliveries(robot.webhookUrl, ids, { concurrency: 8 });
  await waitFor(
    () => stack.counts(robot.robotId),
    (c) => c.succeeded >= 100,
  );
  await stack.stop('mongodb', 'SIGKILL');
  // The outage itself: the scenario is "down for 20 seconds", not a wait for a condition.
  await new Promise((resolve) => setTimeout(resolve, 20_000));
  await stack.start('mongodb');
  const { accepted, statuses } = await sending;

  expect(new Set(statuses.values())).toEqual(new Set([...statuses.values()].filter((s) => s === 200 || s === 503)));
  expect(accepted.size).toBeGreaterThan(100);
  await expectExactlyOneRunEach(stack, robot.robotId, accepted, new Set(ids));
  expect(stack.logs()).not.toContain(robot.webhookUrl.split('/').pop()!); // no line holds the URL's token
});
