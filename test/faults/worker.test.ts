/** The worker is killed with SIGKILL and restarted: every accepted delivery has exactly its runs. */
import { waitFor } from '../../src/launch/os/wait';
import { useFaultStack } from './fault-stack';
import { expectCsvSurvives, expectExactlyOneRunEach, range, sendDeliveries } from './deliveries';

const stack = useFaultStack();

it('during a burst of 1,000 deliveries', async () => {
  const robot = await stack.robotAtWork();
  const sending = sendDeliveries(robot.webhookUrl, range(0, 1000));
  await waitFor(
    () => stack.counts(robot.robotId),
    (c) => c.succeeded >= 100,
  );
  await stack.stop('worker', 'SIGKILL');
  const { accepted } = await sending;
  // The receiver does not need the worker: every delivery was stored.
  expect(accepted.size).toBe(1000);
  await stack.start('worker');
  await expectExactlyOneRunEach(stack, robot.robotId, accepted);
  expect((await stack.counts(robot.robotId)).deliveries).toBe(1000);
});

it('during a 1,500-row CSV', async () => {
  // Two workflow runs (RUNS_PER_CONTINUATION): the kill lands in the first, a third of the way through
  // the rows, with a continue-as-new and more runs to start after it.
  const rows = 1500;
  await expectCsvSurvives(stack, rows, async (robotId) => {
    await stack.stop('worker', 'SIGKILL');
    expect((await stack.counts(robotId)).succeeded).toBeLessThan(rows);
    await stack.start('worker');
  });
});
