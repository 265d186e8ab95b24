/**
 * A sender who means harm, on the real stack (docs/api.md, Bad input): what one delivery may make
 * is capped (DeliveryCaps: here lowered, so the worst allowed CSV is small enough to run in a
 * test), and while the worst allowed CSV fans out another robot's delivery still runs at once.
 * Slow senders, forgers and connection floods: ./slow-senders.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { startStack, type Stack } from './support/stack';
import { onlyDelivery } from './support/robot-waits';
import { waitFor } from '../src/launch/os/wait';
import { FanOutQuota } from '../src/deliveries/fanout-quota';
import { DEFAULT_WORKSPACE } from '../src/domain/workspaces';

/** The caps of this file's stack: small enough that the worst allowed CSV runs in about a minute. */
const CAPS = {
  CSV_MAX_ROWS: 1500,
  CSV_MAX_COLUMNS: 50,
  CSV_MAX_CELL_BYTES: 4096,
  MAX_TRIGGER_BYTES: 1024 * 1024,
  FANOUT_ROWS_PER_HOUR: 2000,
};

/** The fan-out quota of this file's stack, as its worker counts it. */
const CAPS_OF_QUOTA = { FANOUT_ROWS_PER_HOUR: CAPS.FANOUT_ROWS_PER_HOUR, FANOUT_ROWS_PER_HOUR_PER_WORKSPACE: Infinity };

let stack: Stack;
beforeAll(async () => {
  stack = await startStack(Object.fromEntries(Object.entries(CAPS).map(([k, v]) => [k, String(v)])));
});
afterAll(() => stack.close());

describe('caps on what one delivery makes', () => {
  it('records a CSV of one row more than CSV_MAX_ROWS as failed, naming the cap, with no run', async () => {
    const robot = await stack.robotAtWork({ bodyFormat: 'csv' });
    const body = `n\n${Array.from({ length: CAPS.CSV_MAX_ROWS + 1 }, (_, i) => i).join('\n')}\n`;
    expect((await stack.send('POST', robot.webhookUrl, body)).status).toBe(200);
    expect(await onlyDelivery(stack, robot.robotId)).toMatchObject({
      outcome: 'failed',
      error: `over CSV_MAX_ROWS: more than ${CAPS.CSV_MAX_ROWS} rows`,
    });
    const failed = await stack.temporal.workflow
      .getHandle((await onlyDelivery(stack, robot.robotId)).workflowId)
      .describe();
    expect(failed.status.name).toBe('FAILED');
    expect(await stack.runs(robot.robotId)).toEqual([]);
  });

  it('refuses a row wider than CSV_MAX_COLUMNS and a cell over CSV_MAX_CELL_BYTES', async () => {
    const wide = await stack.robotAtWork({ bodyFormat: 'csv' });
    const header = Array.from({ length: CAPS.CSV_MAX_COLUMNS + 1 }, (_, i) => `c${i}`).join(',');
    await stack.send('POST', wide.webhookUrl, `${header}\n1\n`);
    expect((await onlyDelivery(stack, wide.robotId)).error).toBe(
      `over CSV_MAX_COLUMNS: a row of ${CAPS.CSV_MAX_COLUMNS + 1} columns (at most ${CAPS.CSV_MAX_COLUMNS})`,
    );
    const long = await stack.robotAtWork({ bodyFormat: 'csv' });
    await stack.send('POST', long.webhookUrl, `a\n${'x'.repeat(CAPS.CSV_MAX_CELL_BYTES + 1)}\n`);
    expect((await onlyDelivery(stack, long.robotId)).error).toBe(
      `over CSV_MAX_CELL_BYTES: a cell of more than ${CAPS.CSV_MAX_CELL_BYTES} bytes`,
    );
    expect([...(await stack.runs(wide.robotId)), ...(await stack.runs(long.robotId))]).toEqual([]);
  });

  it('refuses a column name over CSV_MAX_HEADER_CELL_BYTES: it would be repeated in every row (review #2b)', async () => {
    const robot = await stack.robotAtWork({ bodyFormat: 'csv' });
    const name = 'n'.repeat(stack.config.deliveryCaps.CSV_MAX_HEADER_CELL_BYTES + 1);
    await stack.send('POST', robot.webhookUrl, `${name}\n${'a\n'.repeat(500)}`);
    expect((await onlyDelivery(stack, robot.robotId)).error).toBe(
      `over CSV_MAX_HEADER_CELL_BYTES: a column name of more than ${stack.config.deliveryCaps.CSV_MAX_HEADER_CELL_BYTES} bytes`,
    );
    expect(await stack.runs(robot.robotId)).toEqual([]);
  });

  it('fails a CSV whose rows would pass what is left of its URL’s FANOUT_ROWS_PER_HOUR, naming it; stopped rows do not count', async () => {
    const robot = await stack.robotAtWork({ bodyFormat: 'csv' });
    const { body: shown } = await stack.api('GET', `/api/robots/${robot.robotId}`);
    // Earlier deliveries of this hour made 1900 runs (counted as a worker counts them, without making them here).
    const earlier = {
      deliveryId: randomUUID(),
      triggerIdentifier: shown.trigger.identifier,
      receivedAt: new Date().toISOString(),
    };
    await new FanOutQuota(stack.models, CAPS_OF_QUOTA).charge({ ...earlier, workspaceId: DEFAULT_WORKSPACE }, 1900);
    const csv = (rows: number, from: number) => `n\n${Array.from({ length: rows }, (_, i) => from + i).join('\n')}\n`;
    const outcomes: string[] = [];
    const send = async (body: string) => {
      expect((await stack.send('POST', robot.webhookUrl, body)).status).toBe(200);
      const deliveries = await waitFor(
        () => stack.deliveries(robot.robotId),
        (d) => d.length === outcomes.length + 1,
      );
      outcomes.push(deliveries[0].outcome === 'failed' ? deliveries[0].error : deliveries[0].outcome);
    };
    // Every row stopped by a rule: no run, and nothing counted (review R6 (b)).
    const rules = { match: 'all', conditions: [{ field: 'trigger.n', op: 'equals', value: 'none' }] };
    expect((await stack.api('PATCH', `/api/robots/${robot.robotId}`, { rules })).status).toBe(200);
    await send(csv(200, 1900));
    // The same rows let through would make 200 runs: past what is left of the hour.
    expect((await stack.api('PATCH', `/api/robots/${robot.robotId}`, { rules: null })).status).toBe(200);
    await send(csv(200, 2100));
    expect(outcomes).toEqual([
      'filtered',
      `over FANOUT_ROWS_PER_HOUR: this URL's CSV deliveries made 1900 rows into runs this hour, and 200 more ` +
        `would pass ${CAPS.FANOUT_ROWS_PER_HOUR}`,
    ]);
  });

  it('refuses trigger data over MAX_TRIGGER_BYTES, in any format', async () => {
    const robot = await stack.robotAtWork();
    const body = JSON.stringify({ big: 'x'.repeat(CAPS.MAX_TRIGGER_BYTES) });
    expect((await stack.send('POST', robot.webhookUrl, body)).status).toBe(200);
    expect((await onlyDelivery(stack, robot.robotId)).error).toBe(
      `over MAX_TRIGGER_BYTES: more than ${CAPS.MAX_TRIGGER_BYTES} bytes of trigger data`,
    );
  });

  it('pads nothing into existence: a wide header over one-cell rows makes runs of one column each', async () => {
    const robot = await stack.robotAtWork({ bodyFormat: 'csv' });
    const header = Array.from({ length: CAPS.CSV_MAX_COLUMNS }, (_, i) => `column_${i}`).join(',');
    expect((await stack.send('POST', robot.webhookUrl, `${header}\nx\ny\n`)).status).toBe(200);
    const runs = await waitFor(
      () => stack.runs(robot.robotId),
      (r) => r.length === 2 && r.every((x) => x.status === 'succeeded'),
    );
    expect(runs.map((r) => r.trigger).sort((a, b) => a.column_0.localeCompare(b.column_0))).toEqual([
      { column_0: 'x' },
      { column_0: 'y' },
    ]);
  });
});

it('runs another robot’s delivery at once while the worst allowed CSV fans out (fair sharing)', async () => {
  const bulk = await stack.robotAtWork({ bodyFormat: 'csv' });
  const other = await stack.robotAtWork();
  const rows = Array.from({ length: CAPS.CSV_MAX_ROWS }, (_, i) => i).join('\n');
  expect((await stack.send('POST', bulk.webhookUrl, `n\n${rows}\n`)).status).toBe(200);
  // The fan-out is under way: its runs are stored and the first have started.
  await waitFor(
    () => stack.client.json('GET', `/api/robots/${bulk.robotId}`),
    (r) => r.runCounts.succeeded > 0,
    120_000,
  );
  expect((await stack.send('POST', other.webhookUrl, '{"urgent":true}')).status).toBe(200);
  await waitFor(
    () => stack.runs(other.robotId),
    (r) => r[0]?.status === 'succeeded',
    120_000,
  );
  // Done while most of the CSV still waits: it did not queue behind the whole fan-out.
  const { runCounts } = await stack.client.json('GET', `/api/robots/${bulk.robotId}`);
  expect(runCounts.succeeded).toBeLessThan(CAPS.CSV_MAX_ROWS / 2);
});
