/**
 * Retention of the run history (src/history/retention.ts): what expires goes with everything it
 * stored, the counts follow, and a slot it frees is never claimed again behind the keeper.
 */
import { DeliveryRecorder } from '../src/history/slots';
import { readTally } from '../src/history/store';
import { SLOT_HINT_MS } from '../src/domain/limits';
import { rawCollection } from '../src/storage/writes';
import { waitFor } from '../src/runtime/wait';
import { deliveryRecordOf as delivery } from './support/delivery-record';
import { startStack, type Stack } from './support/stack';

let short: Stack;
beforeAll(async () => {
  // Long enough that the run is seen finished before it expires on a busy CI machine (6 s was not).
  short = await startStack({ HISTORY_RETENTION: '20s' });
});
afterAll(() => short.close());

it('removes runs, their step results, deliveries and their kept bodies older than HISTORY_RETENTION, and the counts', async () => {
  const robot = await short.robotAtWork();
  expect((await short.send('POST', robot.webhookUrl, JSON.stringify({ a: 1 }))).status).toBe(200);
  const robotNow = () => short.api('GET', `/api/robots/${robot.robotId}`).then((r) => r.body);
  await waitFor(robotNow, (r) => r.runCounts.succeeded === 1);
  const [run] = (await short.api('GET', `/api/robots/${robot.robotId}/runs`)).body.runs;
  expect((await short.api('GET', `/api/runs/${run.id}`)).status).toBe(200);
  const bodyChunk = () => short.models.BlobChunk.findById(`body:${run.deliveryId}:0`, { _id: 1 }).lean();
  expect(await bodyChunk()).not.toBeNull(); // kept for replay while the delivery is in the history
  const gone = await waitFor(robotNow, (r) => r.runCounts.total === 0 && r.deliveryCounts.processed === 0, 120_000);
  expect(gone.runCounts).toEqual({ total: 0, running: 0, succeeded: 0, failed: 0 });
  expect((await short.api('GET', `/api/robots/${robot.robotId}/runs`)).body).toEqual({ runs: [], nextCursor: null });
  expect((await short.api('GET', `/api/robots/${robot.robotId}/deliveries`)).body).toEqual({
    deliveries: [],
    nextCursor: null,
  });
  expect((await short.api('GET', `/api/runs/${run.id}`)).status).toBe(404);
  expect((await short.api('GET', `/api/deliveries/${run.deliveryId}`)).status).toBe(404);
  expect(await short.models.StepResult.findById(`${run.id}:0`).lean()).toBeNull();
  expect(await short.models.RunOutcome.findById(run.id).lean()).toBeNull();
  expect(await bodyChunk()).toBeNull();
});

it('claims no slot it freed for a recorder back from a quiet while, so its delivery is listed', async () => {
  const robot = await short.robotAtWork();
  let clock = Date.now();
  const quiet = new DeliveryRecorder(short.models, { now: () => clock });
  const expired = { receivedAt: new Date(Date.now() - 3_600_000) };
  await quiet.record(delivery(robot.robotId, expired)); // slot 0, and it remembers slot 1 as next
  await new DeliveryRecorder(short.models).record(delivery(robot.robotId, expired)); // slot 1, another process's
  // The keeper lists both, and retention removes them with their slot claims.
  const slots = rawCollection(short.models.HistorySlot);
  const claimed = (slot: number) => slots.findOne({ _id: `${robot.robotId}:${slot}` } as never);
  await waitFor(
    async () => [await claimed(0), await claimed(1)],
    (both) => both.every((claim) => claim === null),
  );
  clock += SLOT_HINT_MS; // what it remembers is no longer trusted
  const back = delivery(robot.robotId);
  await quiet.record(back);
  // Slot 1 would be stored, behind the keeper, and never listed.
  expect((await short.models.Delivery.findById(back._id).lean())?.slot).toBe(2);
  await waitFor(
    () => readTally(short.models, robot.robotId),
    (t) => t.state.nextSlot === 3,
  );
});
