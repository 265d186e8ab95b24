/**
 * A stored body whose start failed without a clear answer is noted, and the sweep
 * (src/deliveries/body-sweep.ts) discards it unless its workflow exists and is its delivery's.
 */
import { bodyBlobId, storeBlob } from '../src/storage/blobs';
import { newId } from '../src/domain/secrets';
import { sweepUnconfirmedBodies } from '../src/deliveries/body-sweep';
import { createTemporalClient } from '../src/temporal/client';
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';

let stack: Stack;
let down: Stack;
beforeAll(async () => {
  stack = await startStack({ INLINE_BODY_BYTES: '1024' });
  // The same database, with Temporal unreachable: every start fails.
  down = await startStack(
    {
      INLINE_BODY_BYTES: '1024',
      TEMPORAL_ADDRESS: '127.0.0.1:1',
      TEMPORAL_START_TIMEOUT_MS: '300',
      MONGODB_URI: stack.config.mongodbUri!,
    },
    { worker: false },
  );
});
afterAll(async () => {
  await down.close();
  await stack.close();
});

const chunk = (deliveryId: string) => stack.models.BlobChunk.findById(`${bodyBlobId(deliveryId)}:0`, { _id: 1 }).lean();
const large = JSON.stringify({ pad: 'x'.repeat(4096) });

it('discards the body of a start that never happened', async () => {
  const robot = await stack.robotAtWork();
  const url = robot.webhookUrl.replace(stack.baseUrl, down.baseUrl);
  expect((await down.send('POST', url, large)).status).toBe(503);
  const [note] = await stack.models.UnconfirmedBody.find({}).lean();
  expect(note).toMatchObject({ workflowId: expect.stringMatching(/^delivery:custom:/), chunks: 1 });
  expect(await chunk(note._id)).not.toBeNull();

  expect(await sweepUnconfirmedBodies(stack.models, down.temporal, 0)).toBe(0); // Temporal does not answer: kept
  expect(await stack.models.UnconfirmedBody.countDocuments()).toBe(1);
  expect(await sweepUnconfirmedBodies(stack.models, stack.temporal, 60_000)).toBe(0); // too recent to ask
  expect(await sweepUnconfirmedBodies(stack.models, stack.temporal, 0)).toBe(1);
  expect(await chunk(note._id)).toBeNull();
  expect(await stack.models.UnconfirmedBody.countDocuments()).toBe(0);
});

it("keeps a body its delivery's workflow owns, and discards a duplicate's", async () => {
  const robot = await stack.robotAtWork();
  expect((await stack.send('POST', robot.webhookUrl, large)).status).toBe(200);
  const [delivery] = await waitFor(
    () => stack.deliveries(robot.robotId),
    (d) => d.length === 1,
  );
  const duplicateId = newId();
  // As if both starts had failed without an answer, though the first one did start.
  for (const id of [delivery.id, duplicateId]) {
    await storeBlob(stack.models, bodyBlobId(id), Buffer.from(large));
    await stack.models.UnconfirmedBody.create({ _id: id, workflowId: delivery.workflowId, chunks: 1, at: new Date(0) });
  }
  const temporal = createTemporalClient(stack.config);
  try {
    expect(await sweepUnconfirmedBodies(stack.models, temporal, 0)).toBe(1);
  } finally {
    await temporal.connection.close();
  }
  expect(await chunk(delivery.id)).not.toBeNull();
  expect(await chunk(duplicateId)).toBeNull();
  expect(await stack.models.UnconfirmedBody.countDocuments()).toBe(0);
});
