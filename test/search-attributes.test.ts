/**
 * Operators find a robot's workflows in the Temporal Web UI by search attribute
 * (src/domain/search-attributes.ts), see a summary of each, and follow links from the API to them.
 */
import { ROBOT_ID } from '../src/domain/search-attributes';
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ TEMPORAL_UI_URL: 'http://localhost:8233/' });
});
afterAll(() => stack.close());

async function workflowsOf(query: string) {
  const found = [];
  for await (const w of stack.temporal.workflow.list({ query })) found.push(w);
  return found;
}

it('finds every delivery and run of a robot by RobotId, with its format and outcome', async () => {
  const robot = await stack.robotAtWork({ bodyFormat: 'csv', template: { n: '{{trigger.n}}' } });
  const other = await stack.robotAtWork({ bodyFormat: 'csv' });
  expect((await stack.send('POST', robot.webhookUrl, 'n\n1\n2\n3')).status).toBe(200);
  expect((await stack.send('POST', other.webhookUrl, 'n\n9')).status).toBe(200);

  // The delivery workflow and its three runs; the other robot's are not among them.
  const mine = await waitFor(
    () => workflowsOf(`RobotId="${robot.robotId}"`),
    (ws) => ws.length === 4 && ws.every((w) => w.status.name === 'COMPLETED'),
  );
  const [delivery] = mine.filter((w) => w.workflowId.startsWith('delivery:'));
  const runs = mine.filter((w) => w.workflowId.startsWith('run:'));
  expect(runs).toHaveLength(3);
  expect(delivery.typedSearchAttributes.get(ROBOT_ID)).toBe(robot.robotId);
  const described = await stack.temporal.workflow.getHandle(delivery.workflowId).describe();
  expect(described.searchAttributes).toMatchObject({
    RobotId: [robot.robotId],
    WorkspaceId: ['default'],
    TriggerIdentifier: [expect.stringMatching(/^custom:/)],
    BodyFormat: ['csv'],
    DeliveryOutcome: ['processed'],
  });
  expect(await described.staticSummary()).toBe(`Delivery for robot "Robot" (${'n\n1\n2\n3'.length} bytes)`);
  const run = await stack.temporal.workflow.getHandle(runs[0].workflowId).describe();
  // A run carries its robot and workspace only; its trigger and format are its delivery's, one click up.
  expect(run.searchAttributes).toMatchObject({ RobotId: [robot.robotId], WorkspaceId: ['default'] });
  expect(run.searchAttributes).not.toHaveProperty('TriggerIdentifier');
  expect(run.searchAttributes).not.toHaveProperty('BodyFormat');
  const children = await workflowsOf(`ParentWorkflowId="${delivery.workflowId}"`);
  expect(children.map((w) => w.workflowId).sort()).toEqual(runs.map((w) => w.workflowId).sort());
  expect(await run.staticSummary()).toMatch(/^Run (\d) of 3 \(csv row \1\) for robot "Robot"$/);

  expect(await workflowsOf(`RobotId="${robot.robotId}" AND DeliveryOutcome="processed"`)).toHaveLength(1);
  expect(await workflowsOf(`RobotId="${robot.robotId}" AND WorkspaceId="default"`)).toHaveLength(4);
});

it('searches failed deliveries, and links deliveries and runs to their workflows in the Web UI', async () => {
  const robot = await stack.robotAtWork({ bodyFormat: 'xml' });
  expect((await stack.send('POST', robot.webhookUrl, '<a>')).status).toBe(200);
  const [failed] = await waitFor(
    () => workflowsOf(`RobotId="${robot.robotId}" AND DeliveryOutcome="failed" AND BodyFormat="xml"`),
    (ws) => ws.length === 1,
  );
  const [delivery] = await waitFor(
    () => stack.deliveries(robot.robotId),
    (d) => d.length === 1,
  );
  const search = (id: string) =>
    `http://localhost:8233/namespaces/default/workflows?query=${encodeURIComponent(`WorkflowId="${id}"`)}`;
  expect(delivery.workflowUrl).toBe(search(failed.workflowId));

  const json = await stack.robotAtWork();
  expect((await stack.send('POST', json.webhookUrl, '{"a":1}')).status).toBe(200);
  const [run] = await waitFor(
    () => stack.runs(json.robotId),
    (r) => r.length === 1 && r[0].status === 'succeeded',
  );
  const [one] = await stack.deliveries(json.robotId);
  expect(run.workflowUrl).toBe(search(one.workflowId)); // a single run executes in its delivery's workflow
});

it('leaves search attributes and summaries off the runs when RUN_SEARCH_ATTRIBUTES=0 and RUN_SUMMARIES=0', async () => {
  const plain = await startStack({ RUN_SEARCH_ATTRIBUTES: '0', RUN_SUMMARIES: '0' });
  try {
    const robot = await plain.robotAtWork({ bodyFormat: 'csv', template: { n: '{{trigger.n}}' } });
    expect((await plain.send('POST', robot.webhookUrl, 'n\n1\n2')).status).toBe(200);
    const [delivery] = await waitFor(
      () => plain.deliveries(robot.robotId),
      (d) => d.length === 1 && d[0].runCount === 2,
    );
    const runs = await waitFor(
      async () => {
        const found = [];
        for await (const w of plain.temporal.workflow.list({ query: `ParentWorkflowId="${delivery.workflowId}"` }))
          found.push(w);
        return found;
      },
      (ws) => ws.length === 2 && ws.every((w) => w.status.name === 'COMPLETED'),
    );
    for (const r of runs) {
      const described = await plain.temporal.workflow.getHandle(r.workflowId).describe();
      expect(described.searchAttributes).not.toHaveProperty('RobotId');
      expect(await described.staticSummary()).toBeUndefined();
    }
    // The delivery itself is still found by its robot.
    const own = await plain.temporal.workflow.getHandle(delivery.workflowId).describe();
    expect(own.searchAttributes).toMatchObject({ RobotId: [robot.robotId] });
  } finally {
    await plain.close();
  }
});
