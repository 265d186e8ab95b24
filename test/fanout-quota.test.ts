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

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({}, { worker: false });
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
