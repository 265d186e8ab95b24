/**
 * A robot's lifecycle after the first delivery, over HTTP on the real stack: rotate the URL's token,
 * pause and resume (docs/api.md). Edits: ./robot-edits.test.ts; replays: ./delivery-replay.test.ts.
 */
import { startStack, type Stack } from './support/stack';
import { robotAtWork, type RobotAtWork } from '../src/client/api-client';
import { waitFor } from '../src/launch/os/wait';
import { dedupKey } from '../src/domain/dedup';
import { deliveryWorkflowId } from '../src/domain/ids';
import { derivedKey } from '../src/domain/secrets';
import { createLogger } from '../src/core/log';
import { releaseHeld } from '../src/deliveries/hold';
import { finishedRuns } from './support/robot-waits';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const post = (url: string, body: string) => stack.send('POST', url, body);
/** What the first step of run `id` put out for `n`. */
const firstOutput = async (id: string) =>
  ((await stack.client.call('getRun', { params: { id } })).steps[0].output as { n: unknown }).n;

describe('token rotation', () => {
  const tokenOf = (url: string) => url.split('/').pop()!;

  it('rotates with a grace period: new URL, same identifier, the old token works until then', async () => {
    const robot = await stack.robotAtWork({ template: { v: '{{trigger.v}}' } });
    const before = Date.now();
    const rotated = await stack.api('POST', `/api/robots/${robot.robotId}/trigger/rotate`, {});
    expect(rotated.status).toBe(200);
    const card = rotated.body.trigger.card;
    expect(card.webhookUrl).not.toBe(robot.webhookUrl);
    expect(card.webhookUrl.replace(tokenOf(card.webhookUrl), '')).toBe(
      robot.webhookUrl.replace(tokenOf(robot.webhookUrl), ''),
    );
    const expires = new Date(card.previousTokenExpiresAt).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + 24 * 3_600_000);
    expect(expires).toBeLessThan(Date.now() + 24 * 3_600_000 + 1000);

    expect((await post(robot.webhookUrl, '{"v":"old"}')).status).toBe(200);
    expect((await post(card.webhookUrl, '{"v":"new"}')).status).toBe(200);
    await finishedRuns(stack, robot.robotId, 2);
    // GET shows the same card.
    expect((await stack.client.call('getRobot', { params: { id: robot.robotId } })).trigger.card).toEqual(card);

    // Tokens are stored as a hash and sealed, never in clear.
    const stored = await stack.models.Robot.findById(robot.robotId).lean();
    expect(JSON.stringify(stored)).not.toContain(tokenOf(card.webhookUrl));
    expect(JSON.stringify(stored)).not.toContain(tokenOf(robot.webhookUrl));

    // Once the grace period is over, the old token answers 404.
    await stack.models.Robot.updateOne(
      { _id: robot.robotId },
      { $set: { 'trigger.previousTokenExpiresAt': new Date(Date.now() - 1000) } },
    );
    const params = { id: robot.robotId };
    await stack.client.call('rotateToken', { params, body: { graceHours: 0 } }); // forgets the cache
    const latest = (await stack.client.call('getRobot', { params })).trigger.card!;
    expect((await post(robot.webhookUrl, '{"v":"late"}')).status).toBe(404);
    expect((await post(latest.webhookUrl!, '{"v":"latest"}')).status).toBe(200);
  });

  it('rotates with no grace: the old URL answers 404 at once; bad grace and a draft robot are refused', async () => {
    const robot = await stack.robotAtWork({ template: {} });
    const rotated = await stack.client.call('rotateToken', { params: { id: robot.robotId }, body: { graceHours: 0 } });
    expect(rotated.trigger.card!.previousTokenExpiresAt).toBeNull();
    expect((await post(robot.webhookUrl, '{}')).status).toBe(404);
    expect((await post(rotated.trigger.card!.webhookUrl!, '{}')).status).toBe(200);

    expect((await stack.api('POST', `/api/robots/${robot.robotId}/trigger/rotate`, { graceHours: 169 })).status).toBe(
      400,
    );
    const draft = await stack.client.call('createRobot', {
      body: { name: 'D', trigger: { appId: robot.appId }, steps: [] },
    });
    const refused = await stack.api('POST', `/api/robots/${draft.id}/trigger/rotate`, {});
    expect(refused.status).toBe(409);
  });
});

describe('pause with queueing', () => {
  it('holds three deliveries while paused (200, nothing runs, a repeat still one) and runs them in order on resume', async () => {
    const robot: RobotAtWork = await robotAtWork(stack.client, { template: { n: '{{trigger.n}}' } });
    const paused = await stack.client.call('pause', { params: { id: robot.robotId } });
    expect(paused.state).toBe('paused');
    for (const n of [1, 2, 3]) expect((await post(robot.webhookUrl, `{"n":${n}}`)).status).toBe(200);
    expect((await post(robot.webhookUrl, '{"n":2}')).status).toBe(200); // a duplicate of the second

    // All three are held in Temporal, and nothing was parsed or run.
    const query = `RobotId = "${robot.robotId}" AND DeliveryOutcome = "held" AND ExecutionStatus = "Running"`;
    await waitFor(
      async () => (await stack.temporal.workflow.count(query)).count,
      (count) => count === 3,
    );
    expect(await stack.deliveries(robot.robotId)).toEqual([]);
    expect(await stack.runs(robot.robotId)).toEqual([]);

    const resumed = await stack.client.call('resume', { params: { id: robot.robotId } });
    expect(resumed.state).toBe('at_work');
    const runs = await finishedRuns(stack, robot.robotId, 3);
    expect(runs).toHaveLength(3);
    // Newest first: they were prepared in arrival order.
    const outputs = [];
    for (const run of runs) outputs.push(await firstOutput(run.id));
    expect(outputs).toEqual([3, 2, 1]);

    // New deliveries run as usual.
    expect((await post(robot.webhookUrl, '{"n":4}')).status).toBe(200);
    await finishedRuns(stack, robot.robotId, 4);
  });

  /**
   * The worker is down through the pause, the deliveries and the resume, so every held workflow
   * runs its first task after the release began: none may go ahead of an older one. The CI run of
   * 2026-11-25 got [2, 1, 3] from the test above, where the worker was merely slow.
   * `HELD_ORDER_REPEAT=50` repeats it (docs/api.md, Pause, says how often it was run).
   */
  const repeats = Array.from({ length: Number(process.env.HELD_ORDER_REPEAT ?? 1) }, (_, i) => i + 1);
  it.each(repeats)('releases in arrival order when the worker starts only after the resume (%i)', async () => {
    const robot: RobotAtWork = await robotAtWork(stack.client, { template: { n: '{{trigger.n}}' } });
    await stack.stopWorker();
    try {
      await stack.client.call('pause', { params: { id: robot.robotId } });
      for (const n of [1, 2, 3]) expect((await post(robot.webhookUrl, `{"n":${n}}`)).status).toBe(200);
      const query = `RobotId = "${robot.robotId}" AND DeliveryOutcome = "held" AND ExecutionStatus = "Running"`;
      await waitFor(
        async () => (await stack.temporal.workflow.count(query)).count,
        (count) => count === 3,
      );
      expect((await stack.client.call('resume', { params: { id: robot.robotId } })).state).toBe('at_work');
    } finally {
      await stack.startWorker();
    }
    const runs = await finishedRuns(stack, robot.robotId, 3);
    const outputs = [];
    for (const run of runs) outputs.push(await firstOutput(run.id));
    expect(outputs).toEqual([3, 2, 1]);
  });

  /** Waits until the held delivery of `body` waits for its release: it found the robot paused and set a timer. */
  async function waitsForRelease(robot: RobotAtWork, body: string): Promise<void> {
    const identifier = decodeURIComponent(new URL(robot.webhookUrl).pathname.split('/')[3]);
    const source = { kind: 'custom' as const, signedWith: null, headers: {}, body: Buffer.from(body) };
    const workflowId = deliveryWorkflowId(identifier, dedupKey(source, derivedKey(stack.config.secretsKey, 'dedup')));
    await waitFor(
      async () => (await stack.temporal.workflow.getHandle(workflowId).fetchHistory()).events ?? [],
      (events) => events.some((e) => e.timerStartedEventAttributes),
    );
  }

  it('a pause stops a release still going; the next resume runs everything held, oldest first', async () => {
    const robot: RobotAtWork = await robotAtWork(stack.client, { template: { n: '{{trigger.n}}' } });
    const heldSince = async () => (await stack.models.Robot.findById(robot.robotId).lean())!.heldSince!;
    await stack.client.call('pause', { params: { id: robot.robotId } });
    const firstPause = await heldSince();
    for (const n of [1, 2]) expect((await post(robot.webhookUrl, `{"n":${n}}`)).status).toBe(200);
    for (const n of [1, 2]) await waitsForRelease(robot, `{"n":${n}}`);

    // A release for this pause, while the robot is still paused, signals nothing.
    const deps = { models: stack.models, temporal: stack.temporal, log: createLogger('receiver', 'error') };
    expect(await releaseHeld(deps, robot.robotId, firstPause)).toBe(0);
    expect(await stack.deliveries(robot.robotId)).toEqual([]);

    // Resume and pause again at once: the second pause begins anew, so the first release's end
    // cannot mark the robot as having nothing held.
    await stack.client.call('resume', { params: { id: robot.robotId } });
    await stack.client.call('pause', { params: { id: robot.robotId } });
    expect((await heldSince()).getTime()).toBeGreaterThan(firstPause.getTime());
    expect((await post(robot.webhookUrl, '{"n":3}')).status).toBe(200);
    await waitsForRelease(robot, '{"n":3}');

    await stack.client.call('resume', { params: { id: robot.robotId } });
    const runs = await finishedRuns(stack, robot.robotId, 3);
    const outputs = [];
    for (const run of runs) outputs.push(await firstOutput(run.id));
    expect(outputs).toEqual([3, 2, 1]);
  });

  it('refuses to pause a robot not at work and to resume one not paused; a stopped robot answers 404', async () => {
    const robot = await stack.robotAtWork({ template: {} });
    await stack.client.call('stop', { params: { id: robot.robotId } });
    expect((await stack.api('POST', `/api/robots/${robot.robotId}/pause`)).status).toBe(409);
    expect((await stack.api('POST', `/api/robots/${robot.robotId}/resume`)).status).toBe(409);
    expect((await post(robot.webhookUrl, '{}')).status).toBe(404);
  });
});
