/**
 * The fan-out quota's count (src/deliveries/fanout-quota.ts) on the real store: workers counting
 * one URL's hour at once count every row once, never past the quota, a delivery counted is
 * never counted again, and a workspace's URLs together stay within its own quota without touching
 * another workspace's.
 */
import { randomUUID } from 'node:crypto';
import { FanOutQuota } from '../src/deliveries/fanout-quota';
import { DeliveryOverCap } from '../src/domain/delivery-caps';
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';

/** The stack's own URL quota, met by the robot of the trigger-rules test below (the others make their own quota). */
const STACK_ROWS_PER_HOUR = 10;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ FANOUT_ROWS_PER_HOUR: String(STACK_ROWS_PER_HOUR) }, { worker: false });
});
afterAll(() => stack.close());

const delivery = (triggerIdentifier: string, receivedAt = new Date().toISOString(), workspaceId = randomUUID()) => ({
  deliveryId: randomUUID(),
  triggerIdentifier,
  receivedAt,
  workspaceId,
});
/** A URL's quota alone: its workspace's is out of the way. */
const perUrl = (rows: number) => ({ FANOUT_ROWS_PER_HOUR: rows, FANOUT_ROWS_PER_HOUR_PER_WORKSPACE: Infinity });

it('counts deliveries charged at once by two workers exactly, refusing those past the quota', async () => {
  const trigger = `custom:${randomUUID()}`;
  const workers = [new FanOutQuota(stack.models, perUrl(150)), new FanOutQuota(stack.models, perUrl(150))];
  const results = await Promise.allSettled(
    Array.from({ length: 20 }, (_, i) => workers[i % 2].charge(delivery(trigger), 10)),
  );
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(15);
  for (const r of results.filter((x) => x.status === 'rejected')) expect(r.reason).toBeInstanceOf(DeliveryOverCap);
  // A third worker that knows nothing of the chain finds its end: nothing is left.
  await expect(new FanOutQuota(stack.models, perUrl(150)).charge(delivery(trigger), 1)).rejects.toThrow(
    /made 150 rows into runs this hour/,
  );
  // Another hour of the same URL starts from nothing.
  await new FanOutQuota(stack.models, perUrl(150)).charge(
    delivery(trigger, new Date(Date.now() - 3_600_000).toISOString()),
    150,
  );
});

it('counts a delivery once, however often its preparation is retried', async () => {
  const trigger = `custom:${randomUUID()}`;
  const quota = new FanOutQuota(stack.models, perUrl(100));
  const d = delivery(trigger);
  for (let i = 0; i < 3; i++) await quota.charge(d, 60);
  await expect(quota.charge(delivery(trigger), 41)).rejects.toThrow(/made 60 rows/);
});

it("holds a workspace's URLs together to its quota, and leaves another workspace's share alone", async () => {
  const quota = new FanOutQuota(stack.models, { FANOUT_ROWS_PER_HOUR: 100, FANOUT_ROWS_PER_HOUR_PER_WORKSPACE: 150 });
  const [flooding, other] = [randomUUID(), randomUUID()];
  const now = new Date().toISOString();
  await quota.charge(delivery(`custom:${randomUUID()}`, now, flooding), 100);
  const second = `custom:${randomUUID()}`;
  await quota.charge(delivery(second, now, flooding), 50);
  const refused = quota.charge(delivery(second, now, flooding), 1);
  await expect(refused).rejects.toThrow(/this workspace's CSV deliveries made 150 rows/);
  await expect(refused.catch((e: DeliveryOverCap) => e.cap)).resolves.toBe('FANOUT_ROWS_PER_HOUR_PER_WORKSPACE');
  // The other workspace's URL has its whole hour.
  await quota.charge(delivery(`custom:${randomUUID()}`, now, other), 100);
});

it('counts a CSV refused by its URL quota in neither hour, and gives a URL its rows back when its workspace refuses', async () => {
  const caps = { FANOUT_ROWS_PER_HOUR: 100, FANOUT_ROWS_PER_HOUR_PER_WORKSPACE: 150 };
  const quota = new FanOutQuota(stack.models, caps);
  const workspace = randomUUID();
  const now = new Date().toISOString();
  const [a, b, c] = [`custom:${randomUUID()}`, `custom:${randomUUID()}`, `custom:${randomUUID()}`];
  await quota.charge(delivery(a, now, workspace), 100);
  // Refused by its URL's hour: its workspace is not charged (it was, once: then 151 would not fit below).
  await expect(quota.charge(delivery(a, now, workspace), 1)).rejects.toThrow(/this URL's CSV deliveries made 100/);
  await quota.charge(delivery(b, now, workspace), 50);
  // Refused by its workspace's hour (150 made): its URL's count is given back.
  const refused = quota.charge(delivery(c, now, workspace), 10);
  await expect(refused).rejects.toThrow(/this workspace's CSV deliveries made 150 rows/);
  await new FanOutQuota(stack.models, {
    FANOUT_ROWS_PER_HOUR: 10,
    FANOUT_ROWS_PER_HOUR_PER_WORKSPACE: Infinity,
  }).charge(delivery(c, now, randomUUID()), 10);
});

it('charges only the rows the trigger rules let through: a CSV of mostly stopped rows makes its runs', async () => {
  await stack.startWorker();
  const robot = await stack.robotAtWork({ bodyFormat: 'csv', template: { name: '{{trigger.name}}' } });
  const rules = { match: 'all', conditions: [{ field: 'trigger.keep', op: 'equals', value: 'yes' }] };
  expect((await stack.api('PATCH', `/api/robots/${robot.robotId}`, { rules })).status).toBe(200);
  // 200 rows, 3 let through, twice: 6 rows charged of the URL's 10 (every row charged: over at the first).
  const csv = (n: number) =>
    ['name,keep', ...Array.from({ length: 200 }, (_, i) => `row${n}-${i},${i % 70 === 0 ? 'yes' : 'no'}`)].join('\n');
  for (const n of [1, 2]) expect((await stack.send('POST', robot.webhookUrl, csv(n))).status).toBe(200);
  const deliveries = await waitFor(
    () => stack.deliveries(robot.robotId),
    (d) => d.length === 2,
  );
  expect(deliveries.map((d) => d.outcome)).toEqual(['processed', 'processed']);
  const runs = await waitFor(
    () => stack.runs(robot.robotId),
    (r) => r.length === 6,
  );
  expect(runs.map((r) => r.trigger.name).sort()).toEqual(
    ['row1-0', 'row1-70', 'row1-140', 'row2-0', 'row2-70', 'row2-140'].sort(),
  );
  expect(STACK_ROWS_PER_HOUR).toBeLessThan(200);
});
