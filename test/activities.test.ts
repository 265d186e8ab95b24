/**
 * The activities in Temporal's MockActivityEnvironment, against the real database: what each
 * stores, and that a retried attempt (after a crash) stores nothing twice.
 */
import { MockActivityEnvironment } from '@temporalio/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import { createActivities, type Activities } from '../activities';
import { runIdFor } from '../src/domain/ids';
import type { BodyFormat, DeliveryInput, RunSeed } from '../src/domain/types';
import { connectDatabase } from '../src/storage/connect';
import type { Models } from '../src/storage/models';
import { workerMetrics } from '../src/core/metrics';
import { robotAtWork } from './support/robots';
import { withDatabase } from './support/stack';

let db: Connection;
let models: Models;
let activities: Activities;
beforeAll(async () => {
  ({ db, models } = await connectDatabase(
    withDatabase(process.env.MONGODB_URI!, `a${randomBytes(5).toString('hex')}`),
  ));
  activities = createActivities({ models, metrics: workerMetrics() });
});
afterAll(async () => {
  await db.dropDatabase();
  await db.close();
});

const env = (heartbeatDetails?: unknown) =>
  new MockActivityEnvironment({
    workflowExecution: { workflowId: 'delivery:test', runId: randomUUID() },
    ...(heartbeatDetails === undefined ? {} : { heartbeatDetails }),
  });

const robotWith = (bodyFormat: BodyFormat, template: unknown = { v: '{{trigger}}' }) =>
  robotAtWork(models, bodyFormat, template);

function delivery(robotId: string, body: string): DeliveryInput {
  return {
    deliveryId: randomUUID(),
    robotId,
    triggerIdentifier: 'custom:x',
    receivedAt: new Date().toISOString(),
    dedupKey: 'sha256:x',
    contentType: 'text/plain',
    size: Buffer.byteLength(body),
    body: { kind: 'inline', encoding: 'utf8', data: body },
    verified: null,
  };
}

describe('prepareDelivery', () => {
  it('parses the body in the app format, stores the delivery and one run, and executes that run', async () => {
    const input = delivery(await robotWith('json'), '{"id":7}');
    const runId = runIdFor(input.deliveryId, 0);
    // A delivery of one run executes it in the same activity (since 0.12): its status, no run left to start.
    expect(await env().run(activities.prepareDelivery, input)).toEqual({
      outcome: 'processed',
      runCount: 1,
      stepCount: 1,
      firstRuns: [],
      runStatus: 'succeeded',
      format: 'json',
    });
    expect(await models.RunOutcome.findById(runId).lean()).toMatchObject({ status: 'succeeded' });
    const stored = await models.Delivery.findById(input.deliveryId).lean();
    expect(stored).toMatchObject({ outcome: 'processed', runCount: 1, format: 'json', workflowId: 'delivery:test' });
    const runs = await models.Run.find({ deliveryId: input.deliveryId }).lean();
    expect(runs.map((r) => [r._id, r.trigger])).toEqual([[runId, { json: '{"id":7}' }]]);
  });

  it('records a body that does not parse as failed, with the parser error, and makes no run', async () => {
    const input = delivery(await robotWith('json'), '{"id":');
    const prepared = await env().run(activities.prepareDelivery, input);
    expect(prepared).toEqual({
      outcome: 'failed',
      error: expect.stringMatching(/^invalid JSON/),
      failure: 'UnparsableBody',
      format: 'json',
    });
    expect(await models.Delivery.findById(input.deliveryId).lean()).toMatchObject({
      outcome: 'failed',
      error: (prepared as { error: string }).error,
    });
    expect(await models.Run.countDocuments({ deliveryId: input.deliveryId })).toBe(0);
  });

  it('stores nothing twice when an attempt is retried', async () => {
    const input = delivery(await robotWith('json'), '{"id":7}');
    const first = await env().run(activities.prepareDelivery, input);
    expect(await env().run(activities.prepareDelivery, input)).toEqual(first);
    expect(await models.Run.countDocuments({ deliveryId: input.deliveryId })).toBe(1);
    expect(await models.Delivery.countDocuments({ _id: input.deliveryId })).toBe(1);
  });

  it('resumes a csv fan-out an earlier attempt left half done: every row once', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => `${i},user${i}@example.com`);
    const input = delivery(await robotWith('csv'), ['n,email', ...rows].join('\n'));
    // An earlier attempt stored the first 1,000 runs, said so by heartbeat, and died.
    await models.Run.insertMany(
      Array.from({ length: 1000 }, (_, i) => ({
        _id: runIdFor(input.deliveryId, i),
        robotId: input.robotId,
        deliveryId: input.deliveryId,
        index: i,
        trigger: { json: JSON.stringify({ n: String(i), email: `user${i}@example.com` }) },
        verified: null,
        createdAt: new Date(),
      })),
    );
    const prepared = await env(1000).run(activities.prepareDelivery, input);
    expect(prepared).toMatchObject({ outcome: 'processed', runCount: 2500, stepCount: 1 });
    expect((prepared as { firstRuns: unknown[] }).firstRuns).toHaveLength(1000);
    const runs = await models.Run.find({ deliveryId: input.deliveryId }, { index: 1, trigger: 1 })
      .sort({ index: 1 })
      .lean();
    expect(runs).toHaveLength(2500);
    expect(runs.map((r) => r.index)).toEqual(rows.map((_, i) => i));
    expect(runs[2499].trigger).toEqual({ json: JSON.stringify({ n: '2499', email: 'user2499@example.com' }) });
  });
});

describe('nextRuns', () => {
  it('gives the seeds of a range of csv rows', async () => {
    const input = delivery(await robotWith('csv'), 'n\n0\n1\n2\n3\n4');
    const seeds = await env().run(activities.nextRuns, { delivery: input, from: 2, to: 4 });
    expect(seeds).toEqual([
      { runId: runIdFor(input.deliveryId, 2), trigger: { kind: 'inline', data: { n: '2' } }, bytes: 9 },
      { runId: runIdFor(input.deliveryId, 3), trigger: { kind: 'inline', data: { n: '3' } }, bytes: 9 },
    ]);
  });

  it('leaves large trigger data in the stored run instead of the workflow history', async () => {
    const big = 'x'.repeat(20_000);
    const input = delivery(await robotWith('csv'), `a\n${big}\nsmall`);
    const seeds: RunSeed[] = await env().run(activities.nextRuns, { delivery: input, from: 0, to: 2 });
    expect(seeds.map((s) => s.trigger)).toEqual([{ kind: 'stored' }, { kind: 'inline', data: { a: 'small' } }]);
  });
});

describe('executeStep and finishRun', () => {
  it('records the resolved output and the outcome of the step that ends the run once, however often it is retried', async () => {
    const robotId = await robotWith('json', { greeting: 'Hi {{trigger.name}}' });
    const runId = `${randomUUID()}-00000000`;
    const step = {
      runId,
      robotId,
      stepIndex: 0,
      trigger: { kind: 'inline' as const, data: { name: 'Ann' } },
      endsRun: true,
    };
    expect(await env().run(activities.executeStep, step)).toBe('succeeded');
    expect(await env().run(activities.executeStep, step)).toBe('succeeded');
    // The step that ends the run is stored with its outcome, in one document.
    expect(await models.StepResult.countDocuments({ runId })).toBe(0);
    expect(await models.RunOutcome.find({ _id: runId }).lean()).toEqual([
      {
        _id: runId,
        robotId,
        status: 'succeeded',
        finishedAt: expect.any(Date),
        endingStep: { index: 0, name: 'compose', status: 'succeeded', output: { json: '{"greeting":"Hi Ann"}' } },
      },
    ]);
  });

  it('leaves the run running after a step that does not end it', async () => {
    const robotId = await robotWith('json', { ok: '{{trigger.name}}' });
    const runId = `${randomUUID()}-00000000`;
    const trigger = { kind: 'inline' as const, data: { name: 'Ann' } };
    expect(await env().run(activities.executeStep, { runId, robotId, stepIndex: 0, trigger, endsRun: false })).toBe(
      'succeeded',
    );
    expect(await models.StepResult.countDocuments({ runId })).toBe(1);
    expect(await models.RunOutcome.countDocuments({ _id: runId })).toBe(0);
  });

  it('records a step that cannot be executed as failed, and the run as failed with it', async () => {
    const robotId = await robotWith('json');
    // A stored template that is not JSON: the step cannot be executed.
    await models.Robot.updateOne({ _id: robotId }, { $set: { 'steps.0.templateJson': '{' } });
    const runId = `${randomUUID()}-00000000`;
    const step = { runId, robotId, stepIndex: 0, trigger: { kind: 'inline' as const, data: {} }, endsRun: false };
    expect(await env().run(activities.executeStep, step)).toBe('failed');
    expect(await models.RunOutcome.findById(runId).lean()).toMatchObject({
      status: 'failed',
      endingStep: { index: 0, status: 'failed', error: expect.any(String) },
    });
  });

  it('finishRun records the outcome of a run without steps once', async () => {
    const runId = `${randomUUID()}-00000000`;
    await env().run(activities.finishRun, { runId, robotId: 'r', status: 'succeeded' as const });
    await env().run(activities.finishRun, { runId, robotId: 'r', status: 'succeeded' as const });
    expect(await models.RunOutcome.find({ _id: runId }).lean()).toEqual([
      { _id: runId, robotId: 'r', status: 'succeeded', finishedAt: expect.any(Date) },
    ]);
  });

  it('reads trigger data that did not travel inline from the stored run', async () => {
    // A json delivery's one run, executed by prepareDelivery itself (since 0.12).
    const big = JSON.stringify({ pad: 'y'.repeat(20_000) });
    const input = delivery(await robotWith('json', { size: '{{trigger.pad}}' }), big);
    expect(await env().run(activities.prepareDelivery, input)).toMatchObject({ firstRuns: [], runStatus: 'succeeded' });
    const only = await models.RunOutcome.findById(runIdFor(input.deliveryId, 0)).lean();
    expect(only?.endingStep?.output).toEqual({ json: JSON.stringify({ size: 'y'.repeat(20_000) }) });
    // A CSV row's run, executed step by step by executeStep.
    const csv = delivery(await robotWith('csv', { size: '{{trigger.pad}}' }), `pad\n${'y'.repeat(20_000)}\nsmall`);
    const prepared = await env().run(activities.prepareDelivery, csv);
    const [seed] = (prepared as { firstRuns: Array<{ runId: string; trigger: { kind: 'stored' } }> }).firstRuns;
    expect(seed.trigger).toEqual({ kind: 'stored' });
    await env().run(activities.executeStep, {
      runId: seed.runId,
      robotId: csv.robotId,
      stepIndex: 0,
      trigger: seed.trigger,
      endsRun: true,
    });
    const outcome = await models.RunOutcome.findById(seed.runId).lean();
    expect(outcome?.endingStep?.output).toEqual({ json: JSON.stringify({ size: 'y'.repeat(20_000) }) });
  });
});
