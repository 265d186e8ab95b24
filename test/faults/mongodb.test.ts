/**
 * MongoDB is stopped for 20 seconds under load, and killed five times in a row: activities retry
 * and every run is stored and listed once.
 */
import { waitFor } from '../../src/launch/os/wait';
import { useFaultStack } from './fault-stack';
import { expectExactlyOneRunEach, range, sendDeliveries } from './deliveries';

const stack = useFaultStack();

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

it("stores and lists every accepted delivery's run exactly once when MongoDB is killed five times under load", async () => {
  const robot = await stack.robotAtWork();
  const ids = range(10_000, 2000);
  const sending = sendDeliveries(robot.webhookUrl, ids, { concurrency: 8 });
  // Each kill cuts the claims, records and outcomes in flight: some stored, some not, none answered.
  for (let kill = 1; kill <= 5; kill++) {
    // Read through the API, which may fail for a moment after a restart: such a read counts as none.
    await waitFor(
      () => stack.counts(robot.robotId).catch(() => null),
      (c) => c !== null && c.succeeded >= 150 * kill,
      120_000,
    );
    await stack.stop('mongodb', 'SIGKILL');
    // Down for 2 to 6 seconds: the scenario, not a wait for a condition.
    await new Promise((resolve) => setTimeout(resolve, 1000 * (kill + 1)));
    await stack.start('mongodb');
  }
  const { accepted } = await sending;
  await expectExactlyOneRunEach(stack, robot.robotId, accepted, new Set(ids));
});
