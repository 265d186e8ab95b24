/**
 * Stored bodies (over INLINE_BODY_BYTES) are kept once their delivery is done with them, whatever
 * its outcome (processed, failed, filtered), stored once, so that the delivery can be replayed;
 * retention removes them with the delivery (test/history.test.ts). A duplicate's body is discarded
 * (test/body-sweep.test.ts).
 */
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ INLINE_BODY_BYTES: String(1024) });
});
afterAll(() => stack.close());

const bodyChunk = (deliveryId: string) => stack.models.BlobChunk.findById(`body:${deliveryId}:0`, { _id: 1 }).lean();

async function deliveredOnce(robotId: string, url: string, body: string) {
  expect((await stack.send('POST', url, body)).status).toBe(200);
  const [delivery] = await waitFor(
    () => stack.deliveries(robotId),
    (d) => d.length === 1,
  );
  await stack.temporal.workflow
    .getHandle(delivery.workflowId)
    .result()
    .catch(() => undefined);
  return delivery;
}

it.each([
  ['processed', JSON.stringify({ pad: 'x'.repeat(4096) })],
  ['failed', `{"pad": "${'x'.repeat(4096)}`],
])('keeps the stored body of a %s delivery for replay', async (outcome, body) => {
  const robot = await stack.robotAtWork();
  const delivery = await deliveredOnce(robot.robotId, robot.webhookUrl, body);
  expect(delivery).toMatchObject({ outcome, replayable: true });
  expect(await bodyChunk(delivery.id)).not.toBeNull();
});

it('keeps the stored body of a filtered delivery for replay', async () => {
  const connection = await stack.client.call('createConnection', { body: { provider: 'stripe', name: 'S' } });
  const robot = await stack.client.call('createRobot', {
    body: { name: 'R', trigger: { connectionId: connection.id, events: ['charge.succeeded'] }, steps: [] },
  });
  const started = await stack.client.call('start', { params: { id: robot.id } });
  const event = { id: 'evt_big', type: 'charge.refunded', data: { object: { pad: 'x'.repeat(4096) } } };
  const delivery = await deliveredOnce(robot.id, started.trigger.card!.webhookUrl!, JSON.stringify(event));
  expect(delivery).toMatchObject({ outcome: 'filtered', replayable: true });
  expect(await bodyChunk(delivery.id)).not.toBeNull();
});
