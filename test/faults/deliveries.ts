/**
 * Deliveries sent to a running service as its senders would (retrying or not), and the checks the
 * fault and cluster tests make of them: exactly one run for each accepted delivery, counts equal
 * to what the pages list, a CSV whose every row runs once whatever is killed on the way.
 */
import { DELIVERY_OUTCOMES } from '../../src/domain/types';
import { waitFor } from '../../src/launch/os/wait';
import { allDeliveries, allRuns, type StackApi } from './stack-api';

export interface SendResult {
  /** Delivery ids (the `id` in each body) that got a 200. */
  accepted: Set<number>;
  statuses: Map<number, number>;
}

/**
 * Sends deliveries `{ id }` for ids in `ids`, `concurrency` at a time. With `retryUntil200`,
 * a sender retries a delivery (same body, so the same dedup key) until it gets a 200, as a
 * webhook sender does; otherwise each delivery is sent once and its answer recorded.
 */
export async function sendDeliveries(
  url: string,
  ids: number[],
  { concurrency = 16, retryUntil200 = false } = {},
): Promise<SendResult> {
  const accepted = new Set<number>();
  const statuses = new Map<number, number>();
  const queue = [...ids];
  const sendOne = async (id: number): Promise<number> => {
    try {
      return (await fetch(url, { method: 'POST', body: JSON.stringify({ id }) })).status;
    } catch {
      return 0; // connection refused or reset: no answer
    }
  };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        let status = await sendOne(id);
        for (let attempt = 1; retryUntil200 && status !== 200; attempt++) {
          if (attempt > 600) throw new Error(`delivery ${id} never got a 200 (last status ${status})`);
          await new Promise((r) => setTimeout(r, 100)); // a sender's back-off between retries
          status = await sendOne(id);
        }
        statuses.set(id, status);
        if (status === 200) accepted.add(id);
      }
    }),
  );
  return { accepted, statuses };
}

/**
 * Waits until every run has finished and every accepted delivery (a 200) has a run, then checks
 * the runs one by one: exactly one run for each accepted delivery, none doubled, and none for a
 * delivery that was never sent. A delivery that got no 200 may have one run (the start can
 * succeed after the receiver gave up waiting): its sender would retry, and the retry is a
 * duplicate. So a count of runs can reach the number accepted while an accepted delivery's run
 * is still to come (an activity whose answer a restart lost is tried again after its timeout):
 * the wait is on the ids themselves.
 */
export async function expectExactlyOneRunEach(
  stack: StackApi,
  robotId: string,
  accepted: Set<number>,
  sent: Set<number> = accepted,
): Promise<void> {
  const runsRead = async (always = false) => {
    const c = await stack.counts(robotId);
    if (!always && (c.succeeded + c.failed < accepted.size || c.runs !== c.succeeded + c.failed)) return { counts: c };
    const runs = await allRuns(stack, robotId);
    const ids = new Set(runs.map((r) => r.trigger.id as number));
    return { counts: c, runs, missing: [...accepted].filter((id) => !ids.has(id)) };
  };
  // Past the wait every accepted delivery has a run: what is left to check is the runs themselves.
  const { runs } = await waitFor(
    () => runsRead(),
    (m): m is Required<typeof m> => m.missing?.length === 0,
    15 * 60_000,
  ).catch(async (err: Error) => {
    // The runs listed are read once more, so that the failure names the deliveries without one.
    const { counts, missing } = await runsRead(true);
    const found = JSON.stringify({ counts, accepted: accepted.size, missing });
    throw new Error(`accepted deliveries without a run: ${found} (${err.message})`, { cause: err });
  });
  const ids = runs.map((r) => r.trigger.id as number);
  const doubled = ids.filter((id, i) => ids.indexOf(id) !== i);
  const unsent = ids.filter((id) => !sent.has(id));
  const notSucceeded = runs.filter((r) => r.status !== 'succeeded').map((r) => r.trigger.id);
  await expectCountsMatchPages(stack, robotId);
  if (doubled.length || unsent.length || notSucceeded.length) {
    throw new Error(`runs do not match deliveries: ${JSON.stringify({ doubled, unsent, notSucceeded })}`);
  }
}

/**
 * The robot's counts equal what its pages list: as many runs as `runCounts.total`, each status as
 * often as its count, and no run or delivery listed twice.
 */
export async function expectCountsMatchPages(stack: StackApi, robotId: string): Promise<void> {
  const robot = await stack.api('GET', `/api/robots/${robotId}`);
  const runs = await allRuns(stack, robotId);
  const deliveries = await allDeliveries(stack, robotId);
  const statuses = { running: 0, succeeded: 0, failed: 0 } as Record<string, number>;
  for (const r of runs) statuses[r.status] += 1;
  expect({ total: runs.length, ...statuses }).toEqual(robot.runCounts);
  expect(new Set(runs.map((r) => r.id)).size).toBe(runs.length);
  expect(new Set(deliveries.map((d) => d.id)).size).toBe(deliveries.length);
  const byOutcome = Object.fromEntries(DELIVERY_OUTCOMES.map((o) => [o, 0])) as Record<string, number>;
  for (const d of deliveries) byOutcome[d.outcome] += 1;
  expect(byOutcome).toEqual(robot.deliveryCounts);
}

/**
 * A CSV of `rows` rows, with `interrupt` called once a third of its runs succeeded (it kills and
 * restarts parts of the stack): every row still makes exactly one run, and the counts equal the pages.
 */
export async function expectCsvSurvives(
  stack: StackApi,
  rows: number,
  interrupt: (robotId: string) => Promise<void>,
): Promise<void> {
  const robot = await stack.robotAtWork('csv');
  const csv = ['id', ...range(0, rows)].join('\n');
  expect((await fetch(robot.webhookUrl, { method: 'POST', body: csv })).status).toBe(200);
  await waitFor(
    () => stack.counts(robot.robotId),
    (c) => c.succeeded >= Math.ceil(rows / 3),
    10 * 60_000,
  );
  await interrupt(robot.robotId);
  await waitFor(
    () => stack.counts(robot.robotId),
    (c) => c.succeeded === rows,
    15 * 60_000,
  );
  // One run per row, none doubled (CSV values are text, hence Number).
  const ids = (await allRuns(stack, robot.robotId)).map((r) => Number(r.trigger.id)).sort((a, b) => a - b);
  expect(ids).toEqual(range(0, rows));
  await expectCountsMatchPages(stack, robot.robotId);
}

export const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
