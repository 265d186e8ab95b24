/**
 * Large bodies cannot run a worker out of memory (docs/security.md, "A worker's memory"): a worker
 * with a 256 MB heap is sent, at its concurrency (50 activities), large JSON bodies to one URL,
 * forms and CSVs to others, while another robot's small deliveries keep arriving. The worker never
 * exits, every delivery ends processed or failed with its reason, and the other robot's runs run.
 * With the lane off (LARGE_BODY_PREPARATIONS=50, PREPARING_BODY_BYTES of 4 GiB) the same worker ran
 * out of heap.
 */
import { waitFor } from '../../src/launch/os/wait';
import { useFaultStack, type FaultStack } from './fault-stack';
import { expectExactlyOneRunEach, range, sendDeliveries } from './deliveries';
import { allDeliveries } from './stack-api';

/** The worker's heap: a quarter of what one preparation of each of these bodies would take with 50 at once. */
const HEAP_MB = 256;
const JSON_BODIES = 50;
const FORM_BODIES = 6;
const CSV_BODIES = 4;
const CSV_ROWS = 6;

const heapOf = (mb: number) => `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=${mb}`.trim();

/** About 3.6 MB of small objects: some 750,000 items, within MAX_TRIGGER_ITEMS, 35 MB of heap parsed. */
const jsonBody = (n: number) =>
  `[{"delivery":${n}}` +
  range(0, 150_000)
    .map((k) => `,{"a":${k},"b":"v${k}"}`)
    .join('') +
  ']';
/** 1,000 fields nested 200 levels (0.6 MB): 200,000 objects, the costliest bytes a form has. */
const formBody = (n: number) =>
  range(0, 1000)
    .map((f) => `f${n}_${f}${'[a]'.repeat(200)}=v`)
    .join('&');
/** Six rows of a cell of 900 KB (CSV_MAX_CELL_BYTES is 1 MiB): 5.4 MB, six runs. */
const csvBody = (n: number) =>
  ['id,data', ...range(0, CSV_ROWS).map((r) => `${n}-${r},${'x'.repeat(900_000)}`)].join('\n');
/** 2.2 MB of a million and more items: past MAX_TRIGGER_ITEMS. */
const overCapBody = () => `[${Array(1_100_000).fill('1').join(',')}]`;

/** Posts a body until it is taken (the receiver answers 503 past its own body budget), as a sender does. */
async function postUntilTaken(url: string, body: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const status = await fetch(url, { method: 'POST', body }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    if (attempt >= 600) throw new Error(`a body was never taken (last status ${status})`);
    await new Promise((r) => setTimeout(r, 200)); // a sender's back-off between retries
  }
}

/** The worker's process is still the one started: it never exited (out of memory or otherwise). */
function workerRunning(stack: FaultStack): void {
  const exit = stack.exitOf('worker');
  if (exit) throw new Error(`the worker exited (${JSON.stringify(exit)}):\n${stack.logs().slice(-3000)}`);
}

describe('a worker of 256 MB', () => {
  const stack = useFaultStack({
    workerEnv: {
      NODE_OPTIONS: heapOf(HEAP_MB),
      // One at a time: two of these forms at once (about 60 MB of heap each) are more than this heap
      // has room for beside the worker's own (the default, 2, is for a worker of Node's default heap).
      LARGE_BODY_PREPARATIONS: '1',
    },
  });

  it('takes large JSON, form and CSV bodies at its concurrency', async () => {
    const json = await stack.robotAtWork('json');
    const form = await stack.robotAtWork('form');
    const csv = await stack.robotAtWork('csv');
    const other = await stack.robotAtWork('json');

    const sending = Promise.all([
      ...range(0, JSON_BODIES).map((n) => postUntilTaken(json.webhookUrl, jsonBody(n))),
      postUntilTaken(json.webhookUrl, overCapBody()),
      ...range(0, FORM_BODIES).map((n) => postUntilTaken(form.webhookUrl, formBody(n))),
      ...range(0, CSV_BODIES).map((n) => postUntilTaken(csv.webhookUrl, csvBody(n))),
    ]);
    // Another robot's small deliveries arrive while the large ones are being prepared.
    const { accepted } = await sendDeliveries(other.webhookUrl, range(0, 50), { concurrency: 4, retryUntil200: true });
    await sending;

    // Every large delivery ends: processed, its runs finished, or failed with its reason.
    const expected = [
      { robot: json, deliveries: JSON_BODIES + 1, runs: JSON_BODIES },
      { robot: form, deliveries: FORM_BODIES, runs: FORM_BODIES },
      { robot: csv, deliveries: CSV_BODIES, runs: CSV_BODIES * CSV_ROWS },
    ];
    for (const { robot, deliveries, runs } of expected) {
      await waitFor(
        async () => {
          workerRunning(stack);
          return stack.counts(robot.robotId);
        },
        (c) => c.deliveries === deliveries && c.succeeded + c.failed === runs,
        15 * 60_000,
      );
      const outcomes = (await allDeliveries(stack, robot.robotId)) as Array<{ outcome: string; error?: string | null }>;
      const failed = outcomes.filter((d) => d.outcome !== 'processed');
      expect((await stack.counts(robot.robotId)).succeeded).toBe(runs);
      if (robot === json) {
        expect(failed).toEqual([
          expect.objectContaining({
            outcome: 'failed',
            error: 'over MAX_TRIGGER_ITEMS: more than 1000000 items in its trigger data',
          }),
        ]);
      } else expect(failed).toEqual([]);
    }
    // The other robot's runs ran, one for each of its deliveries.
    await expectExactlyOneRunEach(stack, other.robotId, accepted);
    workerRunning(stack);
    expect(stack.logs()).not.toMatch(/heap out of memory/i);
  });
});

describe('a body that kills its worker, alone, at every attempt', () => {
  const stack = useFaultStack({
    // Its items are let through (MAX_TRIGGER_ITEMS of 100 million) so that it is parsed: about
    // 300 MB of heap, past this worker's 160.
    workerEnv: { NODE_OPTIONS: heapOf(160), MAX_TRIGGER_ITEMS: '100000000' },
  });

  it('is failed naming PREPARATION_ATTEMPTS once its worker stopped under it three times', async () => {
    const robot = await stack.robotAtWork('json');
    const other = await stack.robotAtWork('json');
    const killer = `[${range(0, 2_000_000)
      .map((k) => `{"a":${k}}`)
      .join(',')}]`;
    await postUntilTaken(robot.webhookUrl, killer);
    // Its worker runs out of heap at each attempt; restarted, as a supervisor would (src/launch/os/supervisor.ts).
    for (let stopped = 1; stopped <= 3; stopped++) {
      await waitFor(
        () => stack.exitOf('worker'),
        (exit) => exit !== null,
        5 * 60_000,
      );
      await stack.start('worker');
    }
    const [delivery] = await waitFor(
      async () => {
        workerRunning(stack);
        return allDeliveries(stack, robot.robotId);
      },
      (deliveries) => deliveries.length === 1,
      5 * 60_000,
    );
    expect(delivery).toEqual(
      expect.objectContaining({
        outcome: 'failed',
        error:
          'over PREPARATION_ATTEMPTS: its worker stopped 3 times while preparing it (out of memory or killed), ' +
          'so it is not tried again',
      }),
    );
    // The worker that gave it up goes on serving: another robot's delivery runs.
    const { accepted } = await sendDeliveries(other.webhookUrl, [1], { retryUntil200: true });
    await expectExactlyOneRunEach(stack, other.robotId, accepted);
    workerRunning(stack);
    expect((await stack.counts(robot.robotId)).runs).toBe(0);
  });
});
