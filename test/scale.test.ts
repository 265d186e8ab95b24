/** CSV at scale and large bodies, on the real stack. */
import { createHash } from 'node:crypto';
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';
import { allPages } from '../src/client/api-client';
import { RUNS_PER_CONTINUATION } from '../src/domain/limits';

/** How long a fan-out may take here (a deadline for waiting, not a speed requirement). */
const LONG = 15 * 60_000;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
}, LONG + 60_000);
afterAll(() => stack.close());

const robotOf = (s: Stack, robotId: string) => s.api('GET', `/api/robots/${robotId}`).then((r) => r.body);

/** Every run of a robot, read page by page through the API. */
const allRuns = (s: Stack, robotId: string): Promise<any[]> =>
  allPages(s.client, 'listRuns', { params: { id: robotId } });

/** Each run read whole (with its steps), 16 at a time: the history lists summaries. */
async function wholeRuns(s: Stack, summaries: any[]): Promise<any[]> {
  const runs: any[] = [];
  for (let i = 0; i < summaries.length; i += 16) {
    runs.push(
      ...(await Promise.all(
        summaries.slice(i, i + 16).map(async (r) => (await s.api('GET', `/api/runs/${r.id}`)).body),
      )),
    );
  }
  return runs;
}

/** Checks that the runs are exactly one per row, each with its row's data and resolved output. */
function expectOneRunPerRow(runs: any[], rows: number) {
  expect(runs).toHaveLength(rows);
  expect(new Set(runs.map((r) => r.id)).size).toBe(rows);
  const byRow = new Map(runs.map((r) => [Number(r.trigger.n), r]));
  expect(byRow.size).toBe(rows);
  for (let i = 0; i < rows; i++) {
    const run = byRow.get(i);
    expect(run?.trigger).toEqual({ n: String(i), email: `user${i}@example.com` });
    expect(run?.status).toBe('succeeded');
    expect(run?.steps[0].output).toEqual({ to: `user${i}@example.com` });
  }
}

const csvOf = (rows: number) =>
  ['n,email', ...Array.from({ length: rows }, (_, i) => `${i},user${i}@example.com`)].join('\n');

/**
 * Exactly one run per row across continue-as-new: one row past twice RUNS_PER_CONTINUATION makes
 * three workflow runs, so the offset is carried through two continuations (a worker killed during a
 * CSV is test/faults/worker.test.ts's). Rates at 10,000 and 100,000 rows are the bench's
 * (docs/benchmark.md): a test asserts what happens, not how fast.
 */
const SCALE_ROWS = 2 * RUNS_PER_CONTINUATION + 1;

it(
  `makes exactly ${SCALE_ROWS} runs from a ${SCALE_ROWS}-row CSV, continuing as new, counted run by run`,
  async () => {
    const robot = await stack.robotAtWork({ bodyFormat: 'csv', template: { to: '{{trigger.email}}' } });
    const csv = csvOf(SCALE_ROWS);
    expect((await stack.send('POST', robot.webhookUrl, csv, { 'content-type': 'text/csv' })).status).toBe(200);
    const done = await waitFor(
      () => robotOf(stack, robot.robotId),
      (r) => r.runCounts.succeeded === SCALE_ROWS,
      LONG,
    );
    expect(done.runCounts).toEqual({ total: SCALE_ROWS, running: 0, succeeded: SCALE_ROWS, failed: 0 });
    expectOneRunPerRow(await wholeRuns(stack, await allRuns(stack, robot.robotId)), SCALE_ROWS);
    const [delivery] = (await stack.api('GET', `/api/robots/${robot.robotId}/deliveries`)).body.deliveries;
    await stack.temporal.workflow.getHandle(delivery.workflowId).result();
    const executions = [];
    for await (const e of stack.temporal.workflow.list({ query: `WorkflowId = '${delivery.workflowId}'` }))
      executions.push(e.status.name);
    expect(executions.filter((s) => s === 'CONTINUED_AS_NEW').length).toBe(2);
  },
  LONG + 60_000,
);

it(
  'keeps a 24 MiB JSON body exactly: its trigger data is stored in chunks, out of the workflow history',
  async () => {
    const robot = await stack.robotAtWork({ template: { id: '{{trigger.id}}', echo: '{{trigger}}' } });
    const data = { id: 'big-1', blob: 'ab'.repeat(12 * 1024 * 1024), 'key.with.dots': [[1]] };
    const body = JSON.stringify(data);
    expect((await stack.send('POST', robot.webhookUrl, body)).status).toBe(200);
    const [summary] = await waitFor(
      () => allRuns(stack, robot.robotId),
      (r) => r[0]?.status === 'succeeded',
      LONG,
    );
    expect(summary.triggerTruncated).toBe(true);
    const [run] = await wholeRuns(stack, [summary]);
    const sha = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');
    expect(sha(run.trigger)).toBe(sha(data));
    expect(run.steps[0].output.id).toBe('big-1');
    expect(sha(run.steps[0].output.echo)).toBe(sha(data));
  },
  LONG + 60_000,
);

it(
  'fans out a 16 MB CSV whose rows are large, continuing as new by history size',
  async () => {
    const robot = await stack.robotAtWork({ bodyFormat: 'csv', template: { n: '{{trigger.n}}' } });
    const pad = 'p'.repeat(8000);
    const rows = 2000;
    const csv = ['n,pad', ...Array.from({ length: rows }, (_, i) => `${i},${pad}`)].join('\n');
    expect(csv.length).toBeGreaterThan(16_000_000);
    expect((await stack.send('POST', robot.webhookUrl, csv)).status).toBe(200);
    const done = await waitFor(
      () => robotOf(stack, robot.robotId),
      (r) => r.runCounts.succeeded === rows,
      LONG,
    );
    expect(done.runCounts.total).toBe(rows);
    const [delivery] = (await stack.api('GET', `/api/robots/${robot.robotId}/deliveries`)).body.deliveries;
    // The delivery workflow ends after its last runs started (and its stored body is discarded),
    // which can be after those runs finished: wait for it, across its continue-as-new chain.
    await stack.temporal.workflow.getHandle(delivery.workflowId).result();
    // About 520 rows (4 MiB of row data) per workflow run: three continue-as-new, where the
    // count of 1,000 runs alone would have made one.
    const executions = [];
    for await (const e of stack.temporal.workflow.list({ query: `WorkflowId = '${delivery.workflowId}'` }))
      executions.push(e.status.name);
    expect(executions.filter((s) => s === 'CONTINUED_AS_NEW').length).toBe(3);
    expect(executions).toContain('COMPLETED');
  },
  LONG + 60_000,
);

it(
  'answers 413 for a body over the default 32 MiB limit',
  async () => {
    const robot = await stack.robotAtWork();
    const res = await stack.send('POST', robot.webhookUrl, Buffer.alloc(32 * 1024 * 1024 + 1, 0x20));
    expect(res.status).toBe(413);
  },
  LONG + 60_000,
);
