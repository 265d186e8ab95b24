/**
 * Structured logs (src/core/log.ts, src/temporal/sdk-log.ts): JSON lines with the delivery's ids, an expected
 * outcome (a body that does not parse) as one info line without a stack, and no token or body.
 */
import { Client } from '@temporalio/client';
import { connectTemporal } from '../src/temporal/socket-address';
import { randomUUID } from 'node:crypto';
import { capturedLogLines } from './support/log-capture';
import { installTestRuntime, startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';

const { lines, destination } = capturedLogLines();
let stack: Stack;
beforeAll(async () => {
  await installTestRuntime({ logLevel: 'info', destination });
  stack = await startStack({ LOG_LEVEL: 'info' });
});
afterAll(() => stack.close());

it('logs a body that does not parse as one info line with its ids, and no stack or body', async () => {
  const robot = await stack.robotAtWork();
  const token = robot.webhookUrl.split('/').pop()!;
  const body = 'card-4242-4242'; // V8's message quotes it: "Unexpected token 'c', "card-4242-4242" is not valid JSON"
  expect((await stack.send('POST', robot.webhookUrl, body)).status).toBe(200);
  const [delivery] = await waitFor(
    () => stack.deliveries(robot.robotId),
    (d) => d.length === 1 && d[0].outcome === 'failed',
  );
  const about = await waitFor(
    // Beside the receiver's access line for its request (src/core/access-log.ts), which names it too.
    () => lines.filter((l) => l.deliveryId === delivery.id && l.msg !== 'request'),
    (found) => found.length > 0,
  );

  expect(about).toEqual([
    expect.objectContaining({
      level: 'info',
      msg: 'delivery failed: the body does not parse',
      name: 'worker',
      deliveryId: delivery.id,
      robotId: robot.robotId,
      workspaceId: 'default',
      workflowId: delivery.workflowId,
      reason: 'invalid JSON',
      time: expect.any(String),
    }),
  ]);
  // The SDK's own "Workflow failed" warning for it is lowered out of sight.
  const warnings = lines.filter((l) => l.level === 'warn' || l.level === 'error');
  expect(warnings.filter((l) => l.workflowId === delivery.workflowId)).toEqual([]);
  const all = JSON.stringify(lines);
  expect(all).not.toContain(token);
  expect(delivery.error).toContain('card-4242-4242'); // the robot builder sees it in the deliveries log
  expect(all).not.toContain('card-4242');
  expect(all).not.toMatch(/"stack"/);
});

it('logs a rejected signature as one info line with the delivery and robot, and no secret', async () => {
  const signingSecret = 'whsec_' + 'logged'.repeat(4);
  const connection = await stack.client.call('createConnection', {
    body: { provider: 'stripe', name: 'P', signingSecret },
  });
  const robot = await stack.client.call('createRobot', {
    body: { name: 'R', trigger: { connectionId: connection.id }, steps: [] },
  });
  const url = (await stack.client.call('start', { params: { id: robot.id } })).trigger.card!.webhookUrl!;
  expect((await stack.send('POST', url, JSON.stringify({ id: 'evt_1', type: 'charge.succeeded' }))).status).toBe(400);
  const [delivery] = await waitFor(
    () => stack.deliveries(robot.id),
    (d) => d.length === 1,
  );
  const about = lines.filter((l) => l.deliveryId === delivery.id && l.msg !== 'request'); // not the access line
  expect(about).toEqual([
    expect.objectContaining({
      level: 'info',
      name: 'receiver',
      msg: 'refused: signature check failed: missing Stripe-Signature header',
      status: 400,
      route: '/api/webhooks/:identifier/:token',
      robotId: robot.id,
      workspaceId: 'default',
    }),
  ]);
  const all = JSON.stringify(lines);
  expect(all).not.toContain(signingSecret);
  expect(all).not.toContain(url.split('/').pop()!);
  expect(all).not.toContain('evt_1');
});

it('refuses a delivery workflow started by hand with an input it did not seal: no run, no record, one warning', async () => {
  const robot = await stack.robotAtWork({ template: { n: '{{trigger.n}}' } });
  // Whoever reaches Temporal, without the payload key: the input is plain JSON (review N6).
  const raw = new Client({ connection: await connectTemporal(stack.config.temporal.address!) });
  const workflowId = `delivery:forged:${randomUUID()}`;
  try {
    const forged = {
      deliveryId: randomUUID(),
      robotId: robot.robotId,
      triggerIdentifier: 'custom:forged',
      receivedAt: new Date().toISOString(),
      dedupKey: 'forged',
      contentType: 'application/json',
      size: 7,
      body: { kind: 'inline', encoding: 'utf8', data: '{"n":1}' },
      verified: true,
    };
    const handle = await raw.workflow.start('deliveryWorkflow', {
      taskQueue: stack.config.temporal.taskQueue,
      workflowId,
      args: [forged],
    });
    await expect(handle.result()).rejects.toThrow();
    const described = await handle.describe();
    expect(described.status.name).toBe('FAILED');
  } finally {
    await raw.connection.close();
  }
  const refused = await waitFor(
    () => lines.filter((l) => l.workflowId === workflowId && l.level === 'warn'),
    (found) => found.length > 0,
  );
  expect(refused).toEqual([
    expect.objectContaining({
      msg: 'refused a delivery workflow whose input this service did not seal: it was not started by a receiver',
    }),
  ]);
  // Nothing else of it above debug: the SDK's own "Workflow failed" is lowered.
  expect(lines.filter((l) => l.workflowId === workflowId && l.level !== 'debug')).toHaveLength(1);
  expect(await stack.deliveries(robot.robotId)).toEqual([]);
  expect(await stack.runs(robot.robotId)).toEqual([]);
});

/**
 * Review N6 (a): a delivery's sealed input, copied from its history into a start under another ID
 * (or a run's into a start no delivery made), with the same raw payload the receiver sealed.
 */
describe('a sealed input copied into a start it was not sealed for', () => {
  async function copyInto(raw: Client, fromId: string, workflowId: string, type: string): Promise<void> {
    const history = await raw.workflow.getHandle(fromId).fetchHistory();
    const input = history.events![0].workflowExecutionStartedEventAttributes!.input!;
    await raw.workflowService.startWorkflowExecution({
      namespace: stack.config.temporal.namespace,
      workflowId,
      workflowType: { name: type },
      taskQueue: { name: stack.config.temporal.taskQueue },
      input,
      requestId: randomUUID(),
    });
  }

  async function refused(raw: Client, workflowId: string, workflow: string): Promise<void> {
    const handle = raw.workflow.getHandle(workflowId);
    await expect(handle.result()).rejects.toThrow();
    expect((await handle.describe()).status.name).toBe('FAILED');
    const warned = await waitFor(
      () => lines.filter((l) => l.workflowId === workflowId && l.level === 'warn'),
      (found) => found.length > 0,
    );
    expect(warned).toEqual([
      expect.objectContaining({
        msg: `refused a ${workflow} workflow whose sealed input was made for another workflow: a copy`,
      }),
    ]);
  }

  it('is refused for a delivery and for a run, and makes no run', async () => {
    const robot = await stack.robotAtWork({ bodyFormat: 'csv', template: { n: '{{trigger.n}}' } });
    expect((await stack.send('POST', robot.webhookUrl, 'n\n1\n2\n')).status).toBe(200);
    const runs = await waitFor(
      () => stack.runs(robot.robotId),
      (r) => r.length === 2 && r.every((x) => x.status === 'succeeded'),
    );
    const [delivery] = await stack.deliveries(robot.robotId);
    const raw = new Client({ connection: await connectTemporal(stack.config.temporal.address!) });
    try {
      const copy = `${delivery.workflowId}-copy`;
      await copyInto(raw, delivery.workflowId, copy, 'deliveryWorkflow');
      await refused(raw, copy, 'delivery');
      // A run's own ID, once its run has closed, but started by nobody's fan-out.
      const runId = `run:${runs[0].id}`;
      await waitFor(
        () => raw.workflow.getHandle(runId).describe(),
        (d) => d.status.name === 'COMPLETED',
      );
      await copyInto(raw, runId, runId, 'runWorkflow');
      await refused(raw, runId, 'run');
    } finally {
      await raw.connection.close();
    }
    expect(await stack.runs(robot.robotId)).toHaveLength(2);
  });
});
