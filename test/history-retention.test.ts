/**
 * Retention of the run history (src/history/retention.ts): what expires goes with everything it
 * stored, the counts follow, and a slot it frees is never claimed again behind the keeper (the
 * recorders' slot hints, src/history/slots.ts).
 */
import { DeliveryRecorder } from '../src/history/slots';
import { readTally } from '../src/history/store';
import { SLOT_HINT_MS } from '../src/domain/limits';
import { rawCollection } from '../src/storage/writes';
import { waitFor } from '../src/launch/os/wait';
import { deliveryRecordOf as delivery } from './support/delivery-record';
import { startStack, type Stack } from './support/stack';

let short: Stack;
beforeAll(async () => {
  // Long enough that the run is seen finished before it expires on a busy CI machine (6 s was not).
  short = await startStack({ HISTORY_RETENTION: '20s' });
});
afterAll(() => short.close());

it('removes runs, step results, deliveries and kept bodies older than HISTORY_RETENTION, and the counts', async () => {
  const robot = await short.robotAtWork();
  expect((await short.send('POST', robot.webhookUrl, JSON.stringify({ a: 1 }))).status).toBe(200);
  const params = { id: robot.robotId };
  const robotNow = () => short.client.call('getRobot', { params });
  await waitFor(robotNow, (r) => r.runCounts?.succeeded === 1);
  const [run] = (await short.client.call('listRuns', { params })).runs;
  expect((await short.api('GET', `/api/runs/${run.id}`)).status).toBe(200);
  const bodyChunk = () => short.models.BlobChunk.findById(`body:${run.deliveryId}:0`, { _id: 1 }).lean();
  expect(await bodyChunk()).not.toBeNull(); // kept for replay while the delivery is in the history
  const gone = await waitFor(robotNow, (r) => r.runCounts?.total === 0 && r.deliveryCounts?.processed === 0, 120_000);
  expect(gone.runCounts).toEqual({ total: 0, running: 0, succeeded: 0, failed: 0 });
  expect(await short.client.call('listRuns', { params })).toEqual({ runs: [], nextCursor: null });
  expect(await short.client.call('listDeliveries', { params })).toEqual({
    deliveries: [],
    nextCursor: null,
  });
  expect((await short.api('GET', `/api/runs/${run.id}`)).status).toBe(404);
  expect((await short.api('GET', `/api/deliveries/${run.deliveryId}`)).status).toBe(404);
  expect(await short.models.StepResult.findById(`${run.id}:0`).lean()).toBeNull();
  expect(await short.models.RunOutcome.findById(run.id).lean()).toBeNull();
  expect(await bodyChunk()).toBeNull();
});

it('frees no slot a recorder may still claim, and claims none it freed, so every delivery is listed', async () => {
  const robot = await short.robotAtWork();
  const [quietClock, busyClock] = [{ ms: 0 }, { ms: 0 }];
  const quiet = new DeliveryRecorder(short.models, { now: () => quietClock.ms });
  const busy = new DeliveryRecorder(short.models, { now: () => busyClock.ms });
  const other = new DeliveryRecorder(short.models);
  const expired = { receivedAt: new Date(Date.now() - 3_600_000) };
  const keeperAt = (next: number) =>
    waitFor(
      () => readTally(short.models, robot.robotId),
      (t) => t.state.nextSlot === next,
    );
  const slotOf = async (d: { _id: string }) => (await short.models.Delivery.findById(d._id).lean())?.slot;
  await quiet.record(delivery(robot.robotId, expired)); // slot 0: it remembers slot 1 as next
  await busy.record(delivery(robot.robotId, expired)); // slot 1: it remembers slot 2
  await other.record(delivery(robot.robotId, expired)); // slot 2
  await keeperAt(3);
  await other.record(delivery(robot.robotId, expired)); // slot 3
  await keeperAt(4); // a later step, whose retention would have freed slots 0 to 2 with no lag
  // The keeper passed slot 2 and it expired, but it is kept for RETENTION_SLOT_LAG_MS: a recorder
  // whose hint (younger than SLOT_HINT_MS) points at it finds it taken and claims after the keeper.
  const early = delivery(robot.robotId);
  await busy.record(early);
  expect(await slotOf(early)).toBe(4);
  const listed = (d: { _id: string }) =>
    waitFor(
      () => short.deliveries(robot.robotId),
      (list) => list.some((l) => l.id === d._id),
    );
  await listed(early); // before it expires in turn (HISTORY_RETENTION here: 20 s)
  const slots = rawCollection(short.models.HistorySlot);
  const claimed = (slot: number) => slots.findOne({ _id: `${robot.robotId}:${slot}` } as never);
  await waitFor(
    () => Promise.all([0, 1, 2, 3].map(claimed)),
    (claims) => claims.every((claim) => claim === null),
    120_000,
  );
  // Then a recorder quiet since slot 0 no longer trusts its hint (slot 1, freed): it claims after the keeper.
  quietClock.ms += SLOT_HINT_MS;
  const back = delivery(robot.robotId);
  await quiet.record(back);
  expect(await slotOf(back)).toBe(5);
  await listed(back);
});
