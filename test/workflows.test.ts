/**
 * The workflows in Temporal's test environment: a dev server started by @temporalio/testing
 * from the locally built CLI (existing-path), a real worker and the real activities.
 */
import { WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import { createActivities } from '../activities';
import { deliveryWorkflowId, runIdFor, runWorkflowId } from '../src/domain/ids';
import { DELIVERY_ID_REUSE_POLICY } from '../src/domain/dedup';
import type { BodyFormat, DeliveryInput } from '../src/domain/types';
import { connectDatabase } from '../src/storage/connect';
import type { Models } from '../src/storage/models';
import { workerMetrics } from '../src/core/metrics';
import { SEARCH_ATTRIBUTES } from '../src/domain/search-attributes';
import { deliveryWorkflow } from '../workflows/delivery';
import { withDatabase } from './support/stack';
import { robotAtWork } from './support/robots';
import { RUNS_PER_CONTINUATION } from '../src/domain/limits';

let testEnv: TestWorkflowEnvironment;
let db: Connection;
let models: Models;
const taskQueue = 'workflow-tests';

beforeAll(async () => {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  testEnv = await TestWorkflowEnvironment.createLocal({
    // The workflows set these search attributes: a namespace without them refuses the workflow task.
    server: {
      executable: { type: 'existing-path', path: process.env.TEMPORAL_CLI_BIN! },
      searchAttributes: [...SEARCH_ATTRIBUTES],
    },
  });
  ({ db, models } = await connectDatabase(
    withDatabase(process.env.MONGODB_URI!, `w${randomBytes(5).toString('hex')}`),
  ));
});
afterAll(async () => {
  await db?.dropDatabase();
  await db?.close();
  await testEnv?.teardown();
});

async function withWorker<T>(fn: () => Promise<T>): Promise<T> {
  const worker = await Worker.create({
    connection: testEnv.nativeConnection,
    taskQueue,
    workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE! },
    activities: createActivities({ models, metrics: workerMetrics() }),
  });
  return worker.runUntil(fn);
}

async function deliveryFor(bodyFormat: BodyFormat, body: string): Promise<DeliveryInput> {
  const robotId = await robotAtWork(models, bodyFormat, { email: '{{trigger.email}}' });
  return {
    deliveryId: randomUUID(),
    robotId,
    triggerIdentifier: 'custom:x',
    receivedAt: new Date().toISOString(),
    dedupKey: 'k',
    contentType: null,
    size: body.length,
    body: { kind: 'inline', encoding: 'utf8', data: body },
    verified: null,
  };
}

it('executes the one run of a json delivery in its own workflow, in the activity that prepares it', async () => {
  const input = await deliveryFor('json', '{"email":"ann@example.com"}');
  const workflowId = deliveryWorkflowId(input.triggerIdentifier, input.dedupKey);
  const result = await withWorker(() =>
    testEnv.client.workflow.execute(deliveryWorkflow, { taskQueue, workflowId, args: [input] }),
  );
  expect(result).toEqual({ outcome: 'processed', runCount: 1, runStatus: 'succeeded' });
  // One local activity prepared the delivery and executed its run (since 0.12; before, a second ran the step).
  const { events } = await testEnv.client.workflow.getHandle(workflowId).fetchHistory();
  const localActivities = events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
  expect(localActivities).toHaveLength(1);
  await expect(
    testEnv.client.workflow.getHandle(runWorkflowId(runIdFor(input.deliveryId, 0))).describe(),
  ).rejects.toThrow(WorkflowNotFoundError);
  // The only step ends the run: its result is on the run's outcome.
  expect(await models.RunOutcome.findById(runIdFor(input.deliveryId, 0)).lean()).toMatchObject({
    status: 'succeeded',
    endingStep: { index: 0, status: 'succeeded', output: { json: '{"email":"ann@example.com"}' } },
  });
});

it('fails the delivery workflow for a body that does not parse, so its ID can be used again', async () => {
  const input = await deliveryFor('xml', '<order><id>1</order>');
  const workflowId = deliveryWorkflowId(input.triggerIdentifier, input.dedupKey);
  const error = await withWorker(() =>
    testEnv.client.workflow
      .execute(deliveryWorkflow, { taskQueue, workflowId, args: [input] })
      .catch((e: unknown) => e),
  );
  expect(error).toBeInstanceOf(WorkflowFailedError);
  expect((error as WorkflowFailedError).cause).toMatchObject({
    type: 'UnparsableBody',
    message: expect.stringMatching(/^invalid XML/),
  });
  // The same ID starts again under the reuse policy the receiver uses.
  const again = await testEnv.client.workflow.start(deliveryWorkflow, {
    taskQueue: 'nobody-polls-this',
    workflowId,
    args: [input],
    workflowIdReusePolicy: DELIVERY_ID_REUSE_POLICY,
  });
  await again.terminate();
});

it('fans a csv out to one run per row across continue-as-new, each run once', async () => {
  // One row more than a workflow run starts: the second run goes on from where the first stopped.
  const rows = RUNS_PER_CONTINUATION + 1;
  const csv = ['email', ...Array.from({ length: rows }, (_, i) => `u${i}@example.com`)].join('\r\n');
  const input = await deliveryFor('csv', csv);
  const workflowId = deliveryWorkflowId(input.triggerIdentifier, input.dedupKey);
  const prepared = await withWorker(async () => {
    const handle = await testEnv.client.workflow.start(deliveryWorkflow, { taskQueue, workflowId, args: [input] });
    const result = await handle.result();
    const first = await testEnv.client.workflow.getHandle(workflowId, handle.firstExecutionRunId).describe();
    expect(first.status.name).toBe('CONTINUED_AS_NEW');
    // Wait for every run workflow to finish, a hundred at a time.
    for (let from = 0; from < rows; from += 100) {
      const to = Math.min(rows, from + 100);
      await Promise.all(
        Array.from({ length: to - from }, (_, i) =>
          testEnv.client.workflow.getHandle(runWorkflowId(runIdFor(input.deliveryId, from + i))).result(),
        ),
      );
    }
    return result;
  });
  expect(prepared).toEqual({ outcome: 'processed', runCount: rows });
  expect(await models.Run.countDocuments({ deliveryId: input.deliveryId })).toBe(rows);
  const outcomes = await models.RunOutcome.find({ robotId: input.robotId }).lean();
  expect(outcomes).toHaveLength(rows);
  expect(outcomes.every((o) => o.status === 'succeeded')).toBe(true);
  const last = await models.RunOutcome.findById(runIdFor(input.deliveryId, rows - 1)).lean();
  expect(last?.endingStep?.output).toEqual({ json: JSON.stringify({ email: `u${rows - 1}@example.com` }) });
}, 900_000); // a hang guard: on 2 busy cores (CI) the thousand runs took over 300 s
