/**
 * The run history and the deliveries log (src/history/): pages over block boundaries, counts that
 * equal what the pages list, slots claimed by several writers at once, a retry's extra slot, a
 * record written after its slot, claims whose connection was lost, and FerretDB's use of the `_id`
 * index (retention: history-retention.test.ts).
 */
import { runIdFor } from '../src/domain/ids';
import { DeliveryRecorder } from '../src/history/slots';
import { HeardRecords } from '../src/history/heard-records';
import { RobotMarks } from '../src/history/marks';
import { readTally } from '../src/history/store';
import { deliveryRecordOf as delivery } from './support/delivery-record';
import { insertOnce, rawCollection } from '../src/storage/writes';
import { type RunOutcomeDoc } from '../src/storage/documents';
import { startStack, type Stack } from './support/stack';
import { connectThroughCutProxy } from './support/cut-proxy';
import { waitFor } from '../src/launch/os/wait';
import { pagesOf } from '../src/client/api-client';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

/** Every page of a robot's runs, and of its deliveries, each answered 200. */
const check = (res: { status: number }) => expect(res.status).toBe(200);
const runPagesOf = (id: string, limit: number) =>
  pagesOf(stack.client, 'listRuns', { params: { id } }, { limit, check });
const deliveryPagesOf = (id: string, limit: number) =>
  pagesOf(stack.client, 'listDeliveries', { params: { id } }, { limit, check });

const robotOf = (robotId: string) => stack.api('GET', `/api/robots/${robotId}`).then((r) => r.body);

it('lists a 120-row CSV in pages of 50 across blocks, newest row first, each run once', async () => {
  const robot = await stack.robotAtWork({ bodyFormat: 'csv', template: { n: '{{trigger.n}}' } });
  const csv = ['n', ...Array.from({ length: 120 }, (_, i) => String(i))].join('\n');
  expect((await stack.send('POST', robot.webhookUrl, csv)).status).toBe(200);
  const done = await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.runCounts.succeeded === 120,
  );
  expect(done.runCounts).toEqual({ total: 120, running: 0, succeeded: 120, failed: 0 });
  expect(done.deliveryCounts).toEqual({
    processed: 1,
    dropped: 0,
    rejected: 0,
    failed: 0,
    handshake: 0,
    filtered: 0,
    duplicate: 0,
  });
  expect(done.lastDeliveryAt).toEqual(expect.any(String));

  const runPages = await runPagesOf(robot.robotId, 50);
  expect(runPages.map((p) => p.length)).toEqual([50, 50, 20]);
  const runs = runPages.flat();
  expect(runs.map((r) => Number((r.trigger as { n: string }).n))).toEqual(
    Array.from({ length: 120 }, (_, i) => 119 - i),
  );
  expect(new Set(runs.map((r) => r.id)).size).toBe(120);
  expect(runs.every((r) => r.status === 'succeeded')).toBe(true);

  const [deliveries] = await deliveryPagesOf(robot.robotId, 50);
  expect(deliveries).toEqual([expect.objectContaining({ outcome: 'processed', runCount: 120, format: 'csv' })]);
  // One delivery is as the log lists it, with its request as it came (the inspector's).
  const one = (await stack.api('GET', `/api/deliveries/${deliveries[0].id}`)).body;
  expect(one).toEqual({ ...deliveries[0], request: expect.objectContaining({ method: 'POST' }) });
  expect((await stack.api('GET', '/api/deliveries/nope')).status).toBe(404);
});

it('counts failed runs and shows each run as it ended', async () => {
  const robot = await stack.robotAtWork();
  const recorder = new DeliveryRecorder(stack.models);
  const d = delivery(robot.robotId, {
    outcome: 'processed',
    runCount: 3,
    reason: null,
    previewsJson: JSON.stringify(['{"i":0}', '{"i":1}', null]),
  });
  const outcome = (i: number, status: 'succeeded' | 'failed'): RunOutcomeDoc => ({
    _id: runIdFor(d._id, i),
    robotId: robot.robotId,
    status,
    finishedAt: new Date(),
  });
  await insertOnce(stack.models.RunOutcome, [outcome(0, 'succeeded'), outcome(1, 'failed')]);
  await recorder.record(d);
  const seen = await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.runCounts.total === 3 && r.runCounts.failed === 1,
  );
  expect(seen.runCounts).toEqual({ total: 3, running: 1, succeeded: 1, failed: 1 });
  const [runs] = await runPagesOf(robot.robotId, 50);
  expect(runs.map((r) => [r.status, r.trigger ?? r.triggerTruncated])).toEqual([
    ['running', true],
    ['failed', { i: 1 }],
    ['succeeded', { i: 0 }],
  ]);
  // The last run ends later: the keeper sees it.
  await insertOnce(stack.models.RunOutcome, [outcome(2, 'succeeded')]);
  const ended = await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.runCounts.running === 0,
  );
  expect(ended.runCounts).toEqual({ total: 3, running: 0, succeeded: 2, failed: 1 });
});

it('counts a run whose end its worker heard without reading it, and finds one that ended elsewhere', async () => {
  const robot = await stack.robotAtWork();
  const d = delivery(robot.robotId, { outcome: 'processed', runCount: 2, reason: null, previewsJson: '[null,null]' });
  await new DeliveryRecorder(stack.models).record(d);
  // Run 0 ended in this process: heard only, never stored here, so only hearing can count it.
  stack.heard.heard(robot.robotId, runIdFor(d._id, 0), { status: 'failed', finishedAt: new Date() });
  // Run 1 ended in another worker process: stored only, found by a read once the grace has passed.
  const other: RunOutcomeDoc = {
    _id: runIdFor(d._id, 1),
    robotId: robot.robotId,
    status: 'succeeded',
    finishedAt: new Date(),
  };
  await insertOnce(stack.models.RunOutcome, [other]);
  const ended = await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.runCounts.running === 0 && r.runCounts.total === 2,
  );
  expect(ended.runCounts).toEqual({ total: 2, running: 0, succeeded: 1, failed: 1 });
  const [runs] = await runPagesOf(robot.robotId, 50);
  expect(runs.map((r) => r.status)).toEqual(['succeeded', 'failed']);
});

it('takes a delivery its worker heard without reading it, and one recorded elsewhere by reading', async () => {
  const robot = await stack.robotAtWork();
  // Slot 0: heard only, its claim and record never stored, so only hearing can list it.
  const heard = { ...delivery(robot.robotId), slot: 0 };
  stack.heard.records.heard(heard);
  await new RobotMarks(stack.models).mark(robot.robotId);
  await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.deliveryCounts.dropped === 1,
  );
  // Slot 1: recorded by another process (stored, not heard here), found by the keeper's reads.
  const elsewhere = delivery(robot.robotId);
  await insertOnce(stack.models.HistorySlot, [
    { _id: `${robot.robotId}:1`, robotId: robot.robotId, slot: 1, deliveryId: elsewhere._id },
  ]);
  await insertOnce(stack.models.Delivery, [{ ...elsewhere, slot: 1 }]);
  await new RobotMarks(stack.models).mark(robot.robotId);
  await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.deliveryCounts.dropped === 2,
  );
  const listed = (await deliveryPagesOf(robot.robotId, 50)).flat();
  expect(listed.map((d) => d.id)).toEqual([elsewhere._id, heard._id]);
});

it('hears a record only when its own insert stored it', async () => {
  const robot = await stack.robotAtWork();
  const records = new HeardRecords();
  const recorder = new DeliveryRecorder(stack.models, { heard: records });
  const first = delivery(robot.robotId);
  await recorder.record(first);
  const stored = await stack.models.Delivery.findById(first._id).lean();
  expect(records.take(robot.robotId, stored!.slot)).toEqual({ ...first, slot: stored!.slot });
  // An attempt that claims another slot and finds the record stored (an earlier attempt's) hears nothing.
  await recorder.record(first);
  expect(records.take(robot.robotId, stored!.slot + 1)).toBeUndefined();
  expect((await stack.models.HistorySlot.findById(`${robot.robotId}:${stored!.slot + 1}`).lean())?.deliveryId).toBe(
    first._id,
  );
});

it('gives every delivery one place when two processes record at once', async () => {
  const robot = await stack.robotAtWork();
  const [a, b] = [new DeliveryRecorder(stack.models), new DeliveryRecorder(stack.models)];
  const records = Array.from({ length: 200 }, () => delivery(robot.robotId));
  await Promise.all(records.map((d, i) => (i % 2 ? a : b).record(d)));
  await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.deliveryCounts.dropped === 200,
  );
  const listed = (await deliveryPagesOf(robot.robotId, 1000)).flat();
  expect(listed.map((d) => d.id).sort()).toEqual(records.map((d) => d._id).sort());
});

it("skips a retry's extra slot, and takes a slot whose record comes later", async () => {
  const robot = await stack.robotAtWork();
  const recorder = new DeliveryRecorder(stack.models);
  await recorder.record(delivery(robot.robotId)); // slot 0
  await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.deliveryCounts.dropped === 1,
  );
  const slots = rawCollection(stack.models.HistorySlot);
  // Slot 1: claimed by an attempt that died; its retry claimed slot 2 and wrote the record there.
  const retried = delivery(robot.robotId);
  await slots.insertOne({ _id: `${robot.robotId}:1`, robotId: robot.robotId, slot: 1, deliveryId: retried._id });
  await slots.insertOne({ _id: `${robot.robotId}:2`, robotId: robot.robotId, slot: 2, deliveryId: retried._id });
  await insertOnce(stack.models.Delivery, [{ ...retried, slot: 2 }]);
  // Slot 3: claimed, and its record is written only after the keeper has seen the slot.
  const late = delivery(robot.robotId);
  await slots.insertOne({ _id: `${robot.robotId}:3`, robotId: robot.robotId, slot: 3, deliveryId: late._id });
  await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.deliveryCounts.dropped === 2,
  );
  await insertOnce(stack.models.Delivery, [{ ...late, slot: 3 }]);
  await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.deliveryCounts.dropped === 3,
  );
  const listed = (await deliveryPagesOf(robot.robotId, 50)).flat();
  expect(listed).toHaveLength(3);
  expect(listed.map((d) => d.id)).toEqual([late._id, retried._id, expect.any(String)]);
  // The skipped claim is kept: were slot 1 free again, a recorder of another process reading an older
  // tally could claim it behind the keeper, and its delivery would never be listed (two workers did).
  expect(await slots.findOne({ _id: `${robot.robotId}:1` })).toMatchObject({ deliveryId: retried._id });
  const next = delivery(robot.robotId);
  await new DeliveryRecorder(stack.models).record(next);
  expect((await stack.models.Delivery.findById(next._id).lean())?.slot).toBe(4);
  await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.deliveryCounts.dropped === 4,
  );
});

it('fails the claims whose connection was lost during their insert, and lists each delivery once retried', async () => {
  const robot = await stack.robotAtWork();
  const proxied = await connectThroughCutProxy(stack.config.mongodbUri!);
  try {
    const recorder = new DeliveryRecorder(proxied.models);
    await recorder.record(delivery(robot.robotId)); // slot 0, and the recorder's next slot is known
    const [lead, ...records] = [1, 2, 3, 4].map(() => delivery(robot.robotId));
    // The lead's claim goes out alone; the three that come meanwhile go out together in the next
    // insert, whose connection is lost before the store sees it: the driver says so with a bulk
    // write error that lists no write errors, which is not "all stored".
    const cut = proxied.cutNext('insert', 'history_slots', { skip: 1 });
    const attempts = await Promise.allSettled([lead, ...records].map((d) => recorder.record(d)));
    await cut;
    expect(attempts.map((a) => a.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'rejected']);
    await Promise.all(records.map((d) => recorder.record(d, { retry: true }))); // as their activities' retries do
    const slots = rawCollection(stack.models.HistorySlot);
    for (const d of records) {
      const { slot } = (await stack.models.Delivery.findById(d._id).lean())!;
      expect(await slots.findOne({ _id: `${robot.robotId}:${slot}` })).toMatchObject({ deliveryId: d._id });
    }
    await waitFor(
      () => robotOf(robot.robotId),
      (r) => r.deliveryCounts.dropped === 5,
    );
  } finally {
    await proxied.close();
  }
});

it('closes a slot left empty before a claimed one, and goes on', async () => {
  const robot = await stack.robotAtWork();
  const slots = rawCollection(stack.models.HistorySlot);
  const after = delivery(robot.robotId);
  // Slot 0 was never written (a claim that failed half way); slot 1 was, and marked as a recorder does.
  await slots.insertOne({ _id: `${robot.robotId}:1`, robotId: robot.robotId, slot: 1, deliveryId: after._id });
  await insertOnce(stack.models.Delivery, [{ ...after, slot: 1 }]);
  await new RobotMarks(stack.models).mark(robot.robotId);
  await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.deliveryCounts.dropped === 1,
  );
  expect(await slots.findOne({ _id: `${robot.robotId}:0` })).toMatchObject({ deliveryId: '' });
  // A claim that comes late finds the slot taken and records its delivery after.
  const late = delivery(robot.robotId);
  await new DeliveryRecorder(stack.models).record(late);
  await waitFor(
    () => robotOf(robot.robotId),
    (r) => r.deliveryCounts.dropped === 2,
  );
  expect((await stack.models.Delivery.findById(late._id).lean())?.slot).toBe(2);
});

it('reads no empty tally for a robot whose tally moved on while it was read', async () => {
  const robotId = `moved-on-${Date.now()}`;
  // A head naming a version already removed, and none after it: what a reader meets when the keeper
  // has moved on past each of its reads.
  await rawCollection(stack.models.HistoryHead).insertOne({ _id: robotId, v: 7 });
  await expect(readTally(stack.models, robotId)).rejects.toThrow(/moved on while it was read/);
});

(process.env.FERRETDB_SQLITE_DIR ? it : it.skip)(
  'reads by _id through the index on the embedded FerretDB',
  async () => {
    const plan = await stack.models.Run.collection.find({ _id: 'any' as never }).explain();
    expect(JSON.stringify(plan)).toMatch(/SEARCH \S+ USING INDEX \S+_id_lookup/);
  },
);
