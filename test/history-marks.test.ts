/**
 * Quiet robots and marks (src/history/keeper.ts, src/history/marks.ts): the keeper here looks at a
 * quiet robot once an hour and never reads the list of robots again, so a delivery reaches the
 * history only through the mark of whatever recorded it: the worker (runs) or the receiver (a
 * duplicate it refused). The stack's own keeper is off; this file's keeper has the lease.
 */
import { createLogger } from '../src/log';
import { startHistoryKeeper, type HistoryKeeper } from '../src/history/keeper';
import { MARK_EVERY_MS } from '../src/history/marks';
import { waitFor } from '../src/runtime/wait';
import { startStack, type Stack } from './support/stack';

const HOUR_MS = 3_600_000;
let stack: Stack;
let keeper: HistoryKeeper;
beforeAll(async () => {
  stack = await startStack({ HISTORY_KEEPER: '0' });
  keeper = startHistoryKeeper({
    models: stack.models,
    retentionMs: 0,
    log: createLogger('worker', 'warn', { format: 'json' }),
    robotsGauge: stack.metrics.worker.historyRobots,
    quietAfterMs: MARK_EVERY_MS,
    quietTickMs: HOUR_MS,
  });
});
afterAll(async () => {
  await keeper?.stop();
  await stack.close();
});

const robotOf = (robotId: string) => stack.api('GET', `/api/robots/${robotId}`).then((r) => r.body);
/** The worker's `history_keeper_robots` gauge, once it reads `awake` and `quiet` (it is set after each pass). */
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
