/** A receiver is killed mid-burst; senders retry every request that got no 200. */
import { waitFor } from '../../src/launch/os/wait';
import { useFaultStack } from './fault-stack';
import { expectExactlyOneRunEach, range, sendDeliveries } from './deliveries';

const stack = useFaultStack();

it('ends with exactly one run per distinct delivery', async () => {
  const robot = await stack.robotAtWork();
  const sending = sendDeliveries(robot.webhookUrl, range(0, 1000), { retryUntil200: true });
  await waitFor(
    () => stack.counts(robot.robotId),
    (c) => c.deliveries >= 100,
  );
  await stack.stop('receiver', 'SIGKILL');
  await stack.start('receiver');
  const { accepted } = await sending;
  expect(accepted.size).toBe(1000);
  await expectExactlyOneRunEach(stack, robot.robotId, accepted);
});
