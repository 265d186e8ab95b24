/**
 * Several receivers and workers on one Temporal server (PostgreSQL, 4 history shards): the same
 * delivery raced through both receivers is one run, and a receiver and a worker killed with
 * SIGKILL mid-burst or mid-CSV lose and double nothing (their supervisors start them again).
 */
import { waitFor } from '../support/wait';
import { expectCsvSurvives, expectExactlyOneRunEach, range, sendDeliveries } from '../faults/fault-stack';
import { startClusterStack, type ClusterStack } from './cluster-stack';

let stack: ClusterStack;
beforeAll(async () => {
  stack = await startClusterStack();
});
afterAll(() => stack?.close());

/** The receiver's URL of a robot's webhook on another base (a receiver's own address). */
const on = (webhookUrl: string, base: string) => base + new URL(webhookUrl).pathname;

it('makes one run of each delivery sent to both receivers at the same moment', async () => {
  const robot = await stack.robotAtWork();
  const ids = range(0, 50);
  const answers = await Promise.all(
    ids.flatMap((id) =>
      stack.receiverUrls.map(async (base) => {
        const res = await fetch(on(robot.webhookUrl, base), { method: 'POST', body: JSON.stringify({ id }) });
        return res.status;
      }),
    ),
  );
  expect(answers).toEqual(answers.map(() => 200));
  await expectExactlyOneRunEach(stack, robot.robotId, new Set(ids));
  expect((await stack.counts(robot.robotId)).deliveries).toBe(ids.length);
});

it('spreads deliveries over both receivers through the entry', async () => {
  const robot = await stack.robotAtWork();
  const { accepted } = await sendDeliveries(robot.webhookUrl, range(0, 40), { concurrency: 4 });
  expect(accepted.size).toBe(40);
  await expectExactlyOneRunEach(stack, robot.robotId, accepted);
  // Each receiver counted some of them (its own /metrics).
  const answered = await Promise.all(
    stack.receiverUrls.map(async (base) => {
      const text = await (await fetch(`${base}/metrics`)).text();
      return [...text.matchAll(/^webhook_responses_total\{status="200"\} (\d+)/gm)].reduce(
        (n, m) => n + Number(m[1]),
        0,
      );
    }),
  );
  expect(answered.every((n) => n > 0)).toBe(true);
});

it('loses and doubles nothing when a receiver and a worker are killed during a burst', async () => {
  const robot = await stack.robotAtWork();
  const sending = sendDeliveries(robot.webhookUrl, range(0, 1000), { retryUntil200: true });
  await waitFor(
    () => stack.counts(robot.robotId),
    (c) => c.succeeded >= 100,
  );
  const receiver = stack.cluster.service('receiver', 0).current();
  const worker = stack.cluster.service('worker', 0).current();
  receiver.child.kill('SIGKILL');
  worker.child.kill('SIGKILL');
  const { accepted } = await sending;
  expect(accepted.size).toBe(1000);
  await expectExactlyOneRunEach(stack, robot.robotId, accepted);
  expect((await stack.counts(robot.robotId)).deliveries).toBe(1000);
  // Both were started again by their supervisors.
  expect(stack.cluster.service('receiver', 0).current()).not.toBe(receiver);
  expect(stack.cluster.service('worker', 0).current()).not.toBe(worker);
});

it('loses and doubles no row when a receiver and a worker are killed during a 4,000-row CSV', async () => {
  // Smaller than the fault tests' 10,000 rows: on 2 cores the cluster's extra processes slow a CSV down.
  const rows = 4000;
  await expectCsvSurvives(stack, rows, async (robotId) => {
    stack.cluster.service('worker', 1).current().child.kill('SIGKILL');
    stack.cluster.service('receiver', 1).current().child.kill('SIGKILL');
    expect((await stack.counts(robotId)).succeeded).toBeLessThan(rows);
  });
});
