/**
 * Quiet robots and marks (src/history/keeper.ts, src/history/marks.ts). First a keeper that looks
 * at a quiet robot once an hour and never reads the list of robots again, so a delivery reaches
 * the history only through the mark of whatever recorded it: the worker (runs) or the receiver (a
 * duplicate it refused). Then one that looks every 2 s, for what no mark tells: a delivery whose
 * mark was lost, and a hole behind it; and a slot claimed whose record does not come, which lets its
 * robot go quiet after the patience. The stack's own keeper is off; this file's keeper has the lease.
 */
import { createLogger } from '../src/core/log';
import { startHistoryKeeper, type HistoryKeeper } from '../src/history/keeper';
import { MARK_EVERY_MS } from '../src/history/marks';
import { DeliveryRecorder } from '../src/history/slots';
import { insertOnce, rawCollection } from '../src/storage/writes';
import { deliveryRecordOf as delivery } from './support/delivery-record';
import { waitFor } from '../src/launch/os/wait';
import { startStack, type Stack } from './support/stack';

const HOUR_MS = 3_600_000;
let stack: Stack;
let keeper: HistoryKeeper;
/**
 * A keeper that lets a robot be MARK_EVERY_MS after anything happened to it, then looks every
 * `quietTickMs`; it reads a pending slot's record at every look for `pendingPatienceMs`.
 */
const keeperLooking = (quietTickMs: number, pendingPatienceMs?: number) =>
  startHistoryKeeper({
    models: stack.models,
    retentionMs: 0,
    log: createLogger('worker', 'warn', { format: 'json' }),
    robotsGauge: stack.metrics.worker.historyRobots,
    quietAfterMs: MARK_EVERY_MS,
    quietTickMs,
    pendingPatienceMs,
  });
beforeAll(async () => {
  stack = await startStack({ HISTORY_KEEPER: '0' });
  keeper = keeperLooking(HOUR_MS);
});
afterAll(async () => {
  await keeper?.stop();
  await stack.close();
});

const robotOf = (robotId: string) => stack.api('GET', `/api/robots/${robotId}`).then((r) => r.body);
/** The worker's `webhooks_history_keeper_robots` gauge, once it reads `awake` and `quiet` (set after each pass). */
const gaugeReads = (awake: number, quiet: number) =>
  waitFor(
    async () => (await stack.metrics.worker.historyRobots.get()).values,
    (values) =>
      values.find((v) => v.labels.state === 'awake')?.value === awake &&
      values.find((v) => v.labels.state === 'quiet')?.value === quiet,
  );

it("takes a quiet robot's deliveries within a second of their marks, from the worker and the receiver", async () => {
  // Made after the keeper read the list of robots: only a mark can make the keeper look at it.
  const robot = await stack.robotAtWork();
  const key = { 'idempotency-key': 'marks-1' };
  expect((await stack.send('POST', robot.webhookUrl, '{"v":1}', key)).status).toBe(200);
  await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.runCounts.succeeded === 1,
  );
  await waitFor(
    () => keeper.isQuiet(robot.robotId),
    (quiet) => quiet,
  );
  await gaugeReads(0, 1);

  // A repeat, recorded by the receiver: its mark wakes the robot.
  expect((await stack.send('POST', robot.webhookUrl, '{"v":1}', key)).status).toBe(200);
  const repeated = await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.deliveryCounts.duplicate === 1,
  );
  expect(repeated.deliveryCounts).toMatchObject({ processed: 1, duplicate: 1 });
  await gaugeReads(1, 0);

  // Quiet again, a new delivery: the worker, which marked this robot more than MARK_EVERY_MS ago, marks it again.
  await waitFor(
    () => keeper.isQuiet(robot.robotId),
    (quiet) => quiet,
  );
  expect((await stack.send('POST', robot.webhookUrl, '{"v":2}', { 'idempotency-key': 'marks-2' })).status).toBe(200);
  const ran = await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.runCounts.succeeded === 2,
  );
  expect(ran.deliveryCounts).toMatchObject({ processed: 2, duplicate: 1 });
});

it('finds a delivery whose mark was lost at a quiet look, and a hole behind one', async () => {
  await keeper.stop(); // gives up the lease: the next keeper takes it at once
  keeper = keeperLooking(2000);
  const robot = await stack.robotAtWork();
  await new DeliveryRecorder(stack.models).record(delivery(robot.robotId)); // slot 0, marked
  await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.deliveryCounts.dropped === 1,
  );
  const quiet = () =>
    waitFor(
      () => keeper.isQuiet(robot.robotId),
      (q) => q,
    );
  await quiet();
  // Written as a recorder would, with no mark: slot 1, then slot 3 with slot 2 left empty (a hole).
  const slots = rawCollection(stack.models.HistorySlot);
  const write = async (slot: number) => {
    const d = delivery(robot.robotId);
    await slots.insertOne({ _id: `${robot.robotId}:${slot}`, robotId: robot.robotId, slot, deliveryId: d._id });
    await insertOnce(stack.models.Delivery, [{ ...d, slot }]);
  };
  await write(1);
  await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.deliveryCounts.dropped === 2,
  );
  await quiet();
  await write(3);
  await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.deliveryCounts.dropped === 3,
  );
  expect(await slots.findOne({ _id: `${robot.robotId}:2` })).toMatchObject({ deliveryId: '' });
});

it("lets a robot go quiet when a claimed slot's record does not come, and takes the record at a quiet look", async () => {
  await keeper.stop();
  keeper = keeperLooking(2000, 3000);
  const robot = await stack.robotAtWork();
  const robotQuiet = (q: boolean) =>
    waitFor(
      () => keeper.isQuiet(robot.robotId),
      (x) => x === q,
    );
  const recorder = new DeliveryRecorder(stack.models);
  await recorder.record(delivery(robot.robotId)); // slot 0
  await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.deliveryCounts.dropped === 1,
  );
  await robotQuiet(true);
  // Slot 1 claimed as a recorder claims it, and its record not written (a receiver killed in between).
  const late = delivery(robot.robotId);
  const slots = rawCollection(stack.models.HistorySlot);
  await slots.insertOne({ _id: `${robot.robotId}:1`, robotId: robot.robotId, slot: 1, deliveryId: late._id });
  await robotQuiet(false); // found at a quiet look: awaited every 250 ms
  await robotQuiet(true); // past the patience, read at quiet looks only
  // Slot 2, recorded as usual, is not held up by slot 1.
  await recorder.record(delivery(robot.robotId));
  await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.deliveryCounts.dropped === 2,
  );
  await robotQuiet(true);
  // The record comes after all, with no mark: taken at a quiet look.
  await insertOnce(stack.models.Delivery, [{ ...late, slot: 1 }]);
  await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.deliveryCounts.dropped === 3,
  );
});
