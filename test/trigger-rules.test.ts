/**
 * Trigger rules (src/domain/trigger-rules.ts, src/deliveries/rules.ts) on the real stack: a
 * delivery or CSV row they stop makes no run and shows as `filtered` with the condition; rules on
 * headers; a delivery follows the rules it was accepted with; the API refuses rules it cannot run.
 */
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';
import type { TriggerRules } from '../src/domain/trigger-rules';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const setRules = (robotId: string, rules: TriggerRules | null) =>
  stack.api('PATCH', `/api/robots/${robotId}`, { rules });
/** The robot's deliveries once there are `n`, each done (every run of a processed one placed). */
const deliveriesWhen = (robotId: string, n: number) =>
  waitFor(
    () => stack.deliveries(robotId),
    (d) => d.length === n,
  );
const runsWhen = (robotId: string, n: number) =>
  waitFor(
    () => stack.runs(robotId),
    (r) => r.length === n && r.every((x) => x.status === 'succeeded'),
  );

it('makes no run for a delivery the rules stop, and says which condition stopped it', async () => {
  const robot = await stack.robotAtWork({ template: { status: '{{trigger.status}}' } });
  const rules: TriggerRules = {
    match: 'all',
    conditions: [
      { field: 'trigger.status', op: 'equals', value: 'paid' },
      { field: 'trigger.amount', op: 'gte', value: 100 },
    ],
  };
  const saved = await setRules(robot.robotId, rules);
  expect(saved.status).toBe(200);
  expect(saved.body).toMatchObject({ rules, stepsVersion: 1 });
  for (const body of [
    { status: 'paid', amount: 150 },
    { status: 'paid', amount: 50 },
    { status: 'open', amount: 150 },
  ])
    expect((await stack.send('POST', robot.webhookUrl, JSON.stringify(body))).status).toBe(200);
  const deliveries = await deliveriesWhen(robot.robotId, 3);
  const [run] = await runsWhen(robot.robotId, 1);
  expect(run.trigger).toEqual({ status: 'paid', amount: 150 });
  expect(deliveries.filter((d) => d.outcome === 'filtered').map((d) => d.reason)).toEqual(
    expect.arrayContaining([
      'condition 2 not met: trigger.amount gte 100',
      'condition 1 not met: trigger.status equals "paid"',
    ]),
  );
  const counts = (await stack.client.call('getRobot', { params: { id: robot.robotId } })).deliveryCounts;
  expect(counts).toMatchObject({ processed: 1, filtered: 2 });
  // A filtered delivery was parsed: its fields are listed (that is how a rule gets fixed).
  const fields = await stack.client.call('robotFields', { params: { id: robot.robotId } });
  expect(fields.deliveries).toBe(3);
});

it("filters a CSV's rows one by one: the runs are exactly the rows let through, across start batches", async () => {
  const robot = await stack.robotAtWork({ bodyFormat: 'csv', template: { n: '{{trigger.n}}' } });
  await setRules(robot.robotId, { match: 'all', conditions: [{ field: 'trigger.keep', op: 'equals', value: 'yes' }] });
  // Rows of 2 KB: the first batch of seeds holds about 260 (SEEDS_MAX_BYTES), so later runs are
  // seeded by reading the CSV again (src/deliveries/csv-runs.ts), through the same rules.
  const pad = 'x'.repeat(2000);
  const rows = Array.from({ length: 700 }, (_, n) => `${n},${n % 2 === 0 ? 'yes' : 'no'},${pad}`);
  expect((await stack.send('POST', robot.webhookUrl, ['n,keep,pad', ...rows].join('\n'))).status).toBe(200);
  const [delivery] = await deliveriesWhen(robot.robotId, 1);
  expect(delivery).toMatchObject({ outcome: 'processed', runCount: 350, filteredRows: 350 });
  const runs = await runsWhen(robot.robotId, 350);
  const seen = runs.map((r) => Number(r.trigger.n)).sort((a, b) => a - b);
  expect(seen).toEqual(Array.from({ length: 350 }, (_, i) => i * 2));

  // Every row stopped: the delivery is filtered.
  expect((await stack.send('POST', robot.webhookUrl, 'n,keep,pad\n1,no,x\n2,no,x')).status).toBe(200);
  const [all] = await deliveriesWhen(robot.robotId, 2);
  expect(all).toMatchObject({ outcome: 'filtered', filteredRows: 2 });
  expect(all.reason).toBe('every row (2) stopped; the first by condition 1 not met: trigger.keep equals "yes"');
});

it('reads a header a rule names, and keeps it with the delivery', async () => {
  const robot = await stack.robotAtWork();
  await setRules(robot.robotId, {
    match: 'any',
    conditions: [{ field: 'headers.x-event', op: 'in', value: ['push', 'release'] }],
  });
  expect((await stack.send('POST', robot.webhookUrl, '{"a":1}', { 'X-Event': 'push' })).status).toBe(200);
  expect((await stack.send('POST', robot.webhookUrl, '{"a":2}', { 'X-Event': 'issues' })).status).toBe(200);
  // A test delivery carries the headers given, so a header rule can be tried from the API.
  const test = { body: '{"a":3}', headers: { 'X-Event': 'release' } };
  expect((await stack.api('POST', `/api/robots/${robot.robotId}/test-delivery`, test)).status).toBe(202);
  const deliveries = await deliveriesWhen(robot.robotId, 3);
  const byEvent = Object.fromEntries(deliveries.map((d) => [d.headers['x-event'], d.outcome]));
  expect(byEvent).toEqual({ push: 'processed', issues: 'filtered', release: 'processed' });
  // A header that carries a credential cannot be read by a rule: it would be kept with every delivery.
  const refused = await setRules(robot.robotId, {
    match: 'all',
    conditions: [{ field: 'headers.authorization', op: 'exists' }],
  });
  expect(refused.status).toBe(400);
});

it('follows the rules its delivery was accepted with, even when they change before it runs', async () => {
  const robot = await stack.robotAtWork();
  expect((await stack.api('POST', `/api/robots/${robot.robotId}/pause`)).status).toBe(200);
  expect((await stack.send('POST', robot.webhookUrl, '{"status":"open"}')).status).toBe(200);
  // Held; now a rule that would stop it.
  await setRules(robot.robotId, {
    match: 'all',
    conditions: [{ field: 'trigger.status', op: 'equals', value: 'paid' }],
  });
  expect((await stack.api('POST', `/api/robots/${robot.robotId}/resume`)).status).toBe(200);
  expect((await stack.send('POST', robot.webhookUrl, '{"status":"open","n":2}')).status).toBe(200);
  const deliveries = await deliveriesWhen(robot.robotId, 2);
  // The held one is recorded when it is released, before or after the new one.
  expect(deliveries.map((d) => [d.stepsVersion, d.outcome]).sort()).toEqual([
    [0, 'processed'],
    [1, 'filtered'],
  ]);
  // null removes them.
  const cleared = await setRules(robot.robotId, null);
  expect(cleared.body).toMatchObject({ rules: null, stepsVersion: 2 });
});

it('refuses rules it cannot run, naming the field', async () => {
  const robot = await stack.robotAtWork();
  const refused = async (rules: unknown) => {
    const res = await stack.api('PATCH', `/api/robots/${robot.robotId}`, { rules });
    expect(res.status).toBe(400);
    return res.body.field as string;
  };
  expect(await refused({ conditions: [{ field: 'trigger.x', op: 'matches', value: '(?=a)b' }] })).toBe(
    'rules.conditions.0.value',
  );
  expect(await refused({ conditions: [{ field: 'body.x', op: 'exists' }] })).toBe('rules.conditions.0.field');
  expect(await refused({ conditions: [{ field: 'trigger.x', op: 'like', value: 'a' }] })).toBe('rules.conditions.0.op');
  expect((await stack.client.call('getRobot', { params: { id: robot.robotId } })).rules).toBeNull();
});

describe('what a matches rule may cost a worker (review N1)', () => {
  it('refuses a pattern whose program is large, naming the way out', async () => {
    const robot = await stack.robotAtWork();
    const email = '[a-z0-9._%+-]{1,64}@[a-z0-9.-]{1,255}\\.(com|org)$';
    const res = await setRules(robot.robotId, {
      match: 'all',
      conditions: [{ field: 'trigger.email', op: 'matches', value: email }],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'rules.conditions.0.value', error: expect.stringMatching(/too costly/) });
  });

  it('fails a delivery whose patterns would test more than RULE_MATCH_CHARS_PER_DELIVERY, once, with no run', async () => {
    const robot = await stack.robotAtWork({ template: { n: '{{trigger.n}}' } });
    const rules: TriggerRules = {
      match: 'all',
      conditions: [{ field: 'trigger.email', op: 'matches', value: '^[a-z]+@[a-z.]+$' }],
    };
    expect((await setRules(robot.robotId, rules)).status).toBe(200);
    // 20 values of 64 KiB (each cut there): 1.25 Mi characters, past the default budget of 1 Mi.
    const crafted = `${'a'.repeat(60)}@${'b.'.repeat(100)}com!`.repeat(400).slice(0, 65_536);
    const body = JSON.stringify({ n: 1, email: Array.from({ length: 20 }, () => crafted) });
    expect((await stack.send('POST', robot.webhookUrl, body)).status).toBe(200);
    // Within the budget, the same rule runs its patterns and stops the delivery.
    const small = JSON.stringify({ n: 2, email: [crafted] });
    expect((await stack.send('POST', robot.webhookUrl, small)).status).toBe(200);
    const deliveries = await deliveriesWhen(robot.robotId, 2);
    const failed = deliveries.find((d) => d.outcome === 'failed');
    expect(failed.error).toMatch(/^over RULE_MATCH_CHARS_PER_DELIVERY: /);
    expect(deliveries.find((d) => d.outcome === 'filtered').reason).toMatch(/condition 1 not met/);
    expect(await stack.runs(robot.robotId)).toEqual([]);
    // Failed once, not retried: its workflow ended failed.
    const described = await stack.temporal.workflow.getHandle(failed.workflowId).describe();
    expect(described.status.name).toBe('FAILED');
  });

  it('fails a CSV whose rows together would be tested past the budget, before any run', async () => {
    const robot = await stack.robotAtWork({ bodyFormat: 'csv', template: { n: '{{trigger.n}}' } });
    const rules: TriggerRules = { match: 'all', conditions: [{ field: 'trigger.code', op: 'matches', value: '^A' }] };
    expect((await setRules(robot.robotId, rules)).status).toBe(200);
    const row = (i: number) => `${i},${'B'.repeat(1000)}`;
    const body = ['n,code', ...Array.from({ length: 1100 }, (_, i) => row(i))].join('\n');
    expect((await stack.send('POST', robot.webhookUrl, body)).status).toBe(200);
    const [delivery] = await deliveriesWhen(robot.robotId, 1);
    expect(delivery).toMatchObject({
      outcome: 'failed',
      error: expect.stringMatching(/RULE_MATCH_CHARS_PER_DELIVERY/),
    });
    expect(await stack.runs(robot.robotId)).toEqual([]);
  });
});
