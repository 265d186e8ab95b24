/**
 * What a robot builder does after the first delivery, over HTTP on the real stack: edit the app
 * and the robot, replay deliveries, rotate the URL's token, pause and resume (docs/api.md).
 */
import { startStack, type Stack } from './support/stack';
import { robotAtWork, type RobotAtWork } from '../src/client/api-client';
import { waitFor } from '../src/launch/os/wait';
import { dedupKey } from '../src/domain/dedup';
import { deliveryWorkflowId } from '../src/domain/ids';
import { derivedKey } from '../src/domain/secrets';
import { bodyBlobId, discardBlob } from '../src/storage/blobs';
import { releaseBody } from '../src/storage/body-refs';
import { createLogger } from '../src/core/log';
import { releaseHeld } from '../src/deliveries/hold';
import { StepsVersions } from '../src/robots/steps-versions';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const post = (url: string, body: string) => stack.send('POST', url, body);

/** The robot's deliveries once `count` of them are recorded (newest first). */
const deliveriesOnce = (robotId: string, count: number) =>
  waitFor(
    () => stack.deliveries(robotId),
    (d) => d.length >= count,
  );
/** The robot's runs once `count` of them have finished (newest first). */
const finishedRuns = (robotId: string, count: number) =>
  waitFor(
    () => stack.runs(robotId),
    (r) => r.filter((run) => run.status !== 'running').length >= count,
  );

describe('editing', () => {
  it('validates a PATCH like a creation and changes only the fields named', async () => {
    const robot = await stack.robotAtWork({ template: { a: '{{trigger.a}}' } });
    expect((await stack.api('PATCH', `/api/robots/${robot.robotId}`, {})).status).toBe(400);
    const bad = await stack.api('PATCH', `/api/robots/${robot.robotId}`, { steps: [{ name: 'x', type: 'call' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toMatch(/^steps/);
    expect((await stack.api('PATCH', `/api/apps/${robot.appId}`, { bodyFormat: 'yaml' })).status).toBe(400);
    expect((await stack.api('PATCH', '/api/robots/nope', { name: 'N' })).status).toBe(404);

    const renamed = await stack.api('PATCH', `/api/robots/${robot.robotId}`, { name: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Renamed', stepsVersion: 0, state: 'at_work' });
    expect(renamed.body.trigger.card.webhookUrl).toBe(robot.webhookUrl);
    const app = await stack.api('PATCH', `/api/apps/${robot.appId}`, { name: 'Shop' });
    expect(app.body).toMatchObject({ name: 'Shop', bodyFormat: 'json', verification: null });
  });

  it('runs a delivery with the steps the robot had when it was accepted, and the next with the new ones', async () => {
    const robot = await stack.robotAtWork({ template: { old: '{{trigger.n}}' } });
    expect((await post(robot.webhookUrl, '{"n":1}')).status).toBe(200);
    const [first] = await finishedRuns(robot.robotId, 1);
    const edited = await stack.api('PATCH', `/api/robots/${robot.robotId}`, {
      steps: [
        { name: 'one', type: 'compose', template: { new: '{{trigger.n}}' } },
        { name: 'two', type: 'compose', template: 'second' },
      ],
    });
    expect(edited.body.stepsVersion).toBe(1);
    expect((await post(robot.webhookUrl, '{"n":2}')).status).toBe(200);
    const runs = await finishedRuns(robot.robotId, 2);
    const second = runs.find((r) => r.id !== first.id);

    // The first run still shows (and ran) the steps of its time; the second the new ones.
    const before = (await stack.api('GET', `/api/runs/${first.id}`)).body;
    expect(before.steps).toEqual([{ name: 'compose', status: 'succeeded', output: { old: 1 } }]);
    const after = (await stack.api('GET', `/api/runs/${second.id}`)).body;
    expect(after.steps).toEqual([
      { name: 'one', status: 'succeeded', output: { new: 2 } },
      { name: 'two', status: 'succeeded', output: 'second' },
    ]);
    const deliveries = await stack.deliveries(robot.robotId);
    expect(deliveries.map((d) => d.stepsVersion).sort()).toEqual([0, 1]);
  });
});

describe('steps versions', () => {
  const compose = (name: string) => [{ name, type: 'compose', template: name }];

  it('an edit that stopped before it changed the robot blocks the next edit once, not forever', async () => {
    const robot = await stack.robotAtWork({ template: {} });
    // What an edit leaves when it stops between storing version 1 and changing the robot.
    await stack.models.RobotSteps.create({
      _id: `${robot.robotId}:1`,
      robotId: robot.robotId,
      version: 1,
      steps: [{ name: 'interrupted', type: 'compose', templateJson: '"interrupted"' }],
      createdAt: new Date(),
    });
    const conflict = await stack.api('PATCH', `/api/robots/${robot.robotId}`, { steps: compose('mine') });
    expect(conflict.status).toBe(409);
    const again = await stack.api('PATCH', `/api/robots/${robot.robotId}`, { steps: compose('mine') });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ stepsVersion: 2, steps: compose('mine') });
  });

  it('never reads version 0 from a robot edited since: its document holds it', async () => {
    const robot = await stack.robotAtWork({ template: { v: 0 } });
    const edited = await stack.api('PATCH', `/api/robots/${robot.robotId}`, { steps: compose('new') });
    expect(edited.body.stepsVersion).toBe(1);
    const versions = () => new StepsVersions(stack.models);
    const stored = [{ name: 'compose', type: 'compose', templateJson: '{"v":0}' }];
    expect(await versions().get(robot.robotId, 0)).toEqual(stored);

    // Without its document (as a worker that read before the edit stored it finds), version 0 is
    // not found rather than taken from the robot's steps of now.
    await stack.models.RobotSteps.deleteOne({ _id: `${robot.robotId}:0` });
    await expect(versions().get(robot.robotId, 0)).rejects.toThrow(/has no steps version 0/);
  });
});

describe('replay', () => {
  it('replays a delivery that failed once the format is fixed, as a new delivery marked replayOf', async () => {
    const robot = await stack.robotAtWork({ bodyFormat: 'json', template: { name: '{{trigger.order.name}}' } });
    const xml = '<order><name>Ann</name></order>';
    expect((await post(robot.webhookUrl, xml)).status).toBe(200);
    const [failed] = await deliveriesOnce(robot.robotId, 1);
    expect(failed).toMatchObject({ outcome: 'failed', replayable: true, replayOf: null });

    expect((await stack.api('PATCH', `/api/apps/${robot.appId}`, { bodyFormat: 'xml' })).status).toBe(200);
    const replay = await stack.api('POST', `/api/deliveries/${failed.id}/replay`);
    expect(replay.status).toBe(202);
    const replayed = await waitFor(
      () => stack.api('GET', `/api/deliveries/${replay.body.deliveryId}`),
      (r) => r.status === 200,
    );
    expect(replayed.body).toMatchObject({ outcome: 'processed', format: 'xml', replayOf: failed.id, runCount: 1 });
    expect(replayed.body.workflowId).toContain(`replay:${failed.id}:1`);
    const [run] = await finishedRuns(robot.robotId, 1);
    expect((await stack.api('GET', `/api/runs/${run.id}`)).body.steps[0].output).toEqual({ name: 'Ann' });

    // A second replay is the second: its own key, its own run.
    const again = await stack.api('POST', `/api/deliveries/${failed.id}/replay`);
    expect(again.status).toBe(202);
    const second = await waitFor(
      () => stack.api('GET', `/api/deliveries/${again.body.deliveryId}`),
      (r) => r.status === 200,
    );
    expect(second.body.workflowId).toContain(`replay:${failed.id}:2`);
    await finishedRuns(robot.robotId, 2);
  });

  it("a replay refers to its original's large body, copies none of it, and keeps it past the original's removal", async () => {
    const robot = await stack.robotAtWork({ bodyFormat: 'text', template: { size: '{{trigger}}' } });
    const big = 'x'.repeat(stack.config.inlineBodyBytes + 1);
    expect((await post(robot.webhookUrl, big)).status).toBe(200);
    const [original] = await deliveriesOnce(robot.robotId, 1);
    await stack.api('POST', `/api/robots/${robot.robotId}/pause`);
    const replay = await stack.api('POST', `/api/deliveries/${original.id}/replay`);
    expect(replay.status).toBe(202);
    const replayId = replay.body.deliveryId as string;
    const chunk = (ownerId: string) => stack.models.BlobChunk.findById(`${ownerId}:0`, { _id: 1 }).lean();
    // No copy (review N10: a bulk replay of 1,000 deliveries of 32 MiB wrote 32 GB).
    expect(await chunk(bodyBlobId(replayId))).toBeNull();
    // While the replay is held, retention removes the original, as it does past HISTORY_RETENTION:
    // its document, then its body, which the replay still refers to.
    const kept = (await stack.models.Delivery.findById(original.id).lean())!.body!;
    await stack.models.Delivery.deleteOne({ _id: original.id });
    await releaseBody(stack.models, kept, original.id);
    expect(await chunk(kept.ownerId)).not.toBeNull();
    await stack.api('POST', `/api/robots/${robot.robotId}/resume`);
    const replayed = await waitFor(
      () => stack.api('GET', `/api/deliveries/${replayId}`),
      (r) => r.status === 200,
    );
    expect(replayed.body).toMatchObject({ outcome: 'processed', runCount: 1, replayOf: original.id });
    const runs = await finishedRuns(robot.robotId, 2);
    expect(runs.every((r) => r.trigger.text === big)).toBe(true);
    // The last delivery that keeps it gone, the body goes.
    await stack.models.Delivery.deleteOne({ _id: replayId });
    await releaseBody(stack.models, kept, replayId);
    expect(await chunk(kept.ownerId)).toBeNull();
    // And a delivery no longer kept cannot be replayed.
    expect((await stack.api('POST', `/api/deliveries/${original.id}/replay`)).status).toBe(404);
  });

  it('fails a delivery whose stored body is gone once, with the reason, instead of retrying it forever', async () => {
    const robot = await stack.robotAtWork({ bodyFormat: 'text', template: { size: '{{trigger}}' } });
    await stack.api('POST', `/api/robots/${robot.robotId}/pause`);
    expect((await post(robot.webhookUrl, 'y'.repeat(stack.config.inlineBodyBytes + 1))).status).toBe(200);
    // Held, with its body stored by the receiver: lost while it waits.
    const [held] = await waitFor(
      async () => {
        const found = [];
        for await (const w of stack.temporal.workflow.list({ query: `RobotId = "${robot.robotId}"` })) found.push(w);
        return found;
      },
      (found) => found.length === 1,
    );
    const { deliveryId } = held.memo as { deliveryId: string };
    await discardBlob(stack.models, bodyBlobId(deliveryId), 1);
    await stack.api('POST', `/api/robots/${robot.robotId}/resume`);
    const [failed] = await deliveriesOnce(robot.robotId, 1);
    expect(failed).toMatchObject({
      outcome: 'failed',
      error: "the delivery's body is no longer kept",
      replayable: false,
    });
    const described = await stack.temporal.workflow.getHandle(failed.workflowId).describe();
    expect(described.status.name).toBe('FAILED');
  });

  it('replays many: the failed deliveries since a time, in bounded batches, and says 409 or 404 when it cannot', async () => {
    const robot = await stack.robotAtWork({ bodyFormat: 'json', template: { v: '{{trigger}}' } });
    for (const body of ['not json 1', 'not json 2', '{"ok":true}'])
      expect((await post(robot.webhookUrl, body)).status).toBe(200);
    const logged = await deliveriesOnce(robot.robotId, 3);
    expect(logged.filter((d) => d.outcome === 'failed')).toHaveLength(2);

    await stack.api('PATCH', `/api/apps/${robot.appId}`, { bodyFormat: 'text' });
    const since = new Date(Date.now() - 60_000).toISOString();
    const bulk = await stack.api('POST', `/api/robots/${robot.robotId}/deliveries/replay`, {
      outcome: 'failed',
      since,
    });
    expect(bulk.status).toBe(202);
    expect(bulk.body.deliveryIds).toHaveLength(2);
    expect(bulk.body.nextCursor).toBeNull();
    const all = await deliveriesOnce(robot.robotId, 5);
    const replays = all.filter((d) => d.replayOf);
    expect(replays.map((d) => d.outcome)).toEqual(['processed', 'processed']);

    const future = new Date(Date.now() + 60_000).toISOString();
    const none = await stack.api('POST', `/api/robots/${robot.robotId}/deliveries/replay`, {
      outcome: 'failed',
      since: future,
    });
    expect(none.body.deliveryIds).toEqual([]);
    expect((await stack.api('POST', '/api/deliveries/nope/replay')).status).toBe(404);
    await stack.api('POST', `/api/robots/${robot.robotId}/stop`);
    const stopped = await stack.api('POST', `/api/deliveries/${logged[0].id}/replay`);
    expect(stopped.status).toBe(409);
    expect(stopped.body.error).toMatch(/not at work/);
  });
});

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
    await finishedRuns(robot.robotId, 2);
    // GET shows the same card.
    expect((await stack.api('GET', `/api/robots/${robot.robotId}`)).body.trigger.card).toEqual(card);

    // Tokens are stored as a hash and sealed, never in clear.
    const stored = await stack.models.Robot.findById(robot.robotId).lean();
    expect(JSON.stringify(stored)).not.toContain(tokenOf(card.webhookUrl));
    expect(JSON.stringify(stored)).not.toContain(tokenOf(robot.webhookUrl));

    // Once the grace period is over, the old token answers 404.
    await stack.models.Robot.updateOne(
      { _id: robot.robotId },
      { $set: { 'trigger.previousTokenExpiresAt': new Date(Date.now() - 1000) } },
    );
    await stack.api('POST', `/api/robots/${robot.robotId}/trigger/rotate`, { graceHours: 0 }); // forgets the cache
    const latest = (await stack.api('GET', `/api/robots/${robot.robotId}`)).body.trigger.card;
    expect((await post(robot.webhookUrl, '{"v":"late"}')).status).toBe(404);
    expect((await post(latest.webhookUrl, '{"v":"latest"}')).status).toBe(200);
  });

  it('rotates with no grace: the old URL answers 404 at once; bad grace and a draft robot are refused', async () => {
    const robot = await stack.robotAtWork({ template: {} });
    const rotated = await stack.api('POST', `/api/robots/${robot.robotId}/trigger/rotate`, { graceHours: 0 });
    expect(rotated.body.trigger.card.previousTokenExpiresAt).toBeNull();
    expect((await post(robot.webhookUrl, '{}')).status).toBe(404);
    expect((await post(rotated.body.trigger.card.webhookUrl, '{}')).status).toBe(200);

    expect((await stack.api('POST', `/api/robots/${robot.robotId}/trigger/rotate`, { graceHours: 169 })).status).toBe(
      400,
    );
    const draft = await stack.api('POST', '/api/robots', { name: 'D', trigger: { appId: robot.appId }, steps: [] });
    const refused = await stack.api('POST', `/api/robots/${draft.body.id}/trigger/rotate`, {});
    expect(refused.status).toBe(409);
  });
});

describe('pause with queueing', () => {
  it('holds three deliveries while paused (200, nothing runs, a repeat still one) and runs them in order on resume', async () => {
    const robot: RobotAtWork = await robotAtWork(stack.client, { template: { n: '{{trigger.n}}' } });
    const paused = await stack.api('POST', `/api/robots/${robot.robotId}/pause`);
    expect(paused.body.state).toBe('paused');
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

    const resumed = await stack.api('POST', `/api/robots/${robot.robotId}/resume`);
    expect(resumed.body.state).toBe('at_work');
    const runs = await finishedRuns(robot.robotId, 3);
    expect(runs).toHaveLength(3);
    // Newest first: they were prepared in arrival order.
    const outputs = [];
    for (const run of runs) outputs.push((await stack.api('GET', `/api/runs/${run.id}`)).body.steps[0].output.n);
    expect(outputs).toEqual([3, 2, 1]);

    // New deliveries run as usual.
    expect((await post(robot.webhookUrl, '{"n":4}')).status).toBe(200);
    await finishedRuns(robot.robotId, 4);
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
      await stack.api('POST', `/api/robots/${robot.robotId}/pause`);
      for (const n of [1, 2, 3]) expect((await post(robot.webhookUrl, `{"n":${n}}`)).status).toBe(200);
      const query = `RobotId = "${robot.robotId}" AND DeliveryOutcome = "held" AND ExecutionStatus = "Running"`;
      await waitFor(
        async () => (await stack.temporal.workflow.count(query)).count,
        (count) => count === 3,
      );
      expect((await stack.api('POST', `/api/robots/${robot.robotId}/resume`)).body.state).toBe('at_work');
    } finally {
      await stack.startWorker();
    }
    const runs = await finishedRuns(robot.robotId, 3);
    const outputs = [];
    for (const run of runs) outputs.push((await stack.api('GET', `/api/runs/${run.id}`)).body.steps[0].output.n);
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
    await stack.api('POST', `/api/robots/${robot.robotId}/pause`);
    const firstPause = await heldSince();
    for (const n of [1, 2]) expect((await post(robot.webhookUrl, `{"n":${n}}`)).status).toBe(200);
    for (const n of [1, 2]) await waitsForRelease(robot, `{"n":${n}}`);

    // A release for this pause, while the robot is still paused, signals nothing.
    const deps = { models: stack.models, temporal: stack.temporal, log: createLogger('receiver', 'error') };
    expect(await releaseHeld(deps, robot.robotId, firstPause)).toBe(0);
    expect(await stack.deliveries(robot.robotId)).toEqual([]);

    // Resume and pause again at once: the second pause begins anew, so the first release's end
    // cannot mark the robot as having nothing held.
    await stack.api('POST', `/api/robots/${robot.robotId}/resume`);
    await stack.api('POST', `/api/robots/${robot.robotId}/pause`);
    expect((await heldSince()).getTime()).toBeGreaterThan(firstPause.getTime());
    expect((await post(robot.webhookUrl, '{"n":3}')).status).toBe(200);
    await waitsForRelease(robot, '{"n":3}');

    await stack.api('POST', `/api/robots/${robot.robotId}/resume`);
    const runs = await finishedRuns(robot.robotId, 3);
    const outputs = [];
    for (const run of runs) outputs.push((await stack.api('GET', `/api/runs/${run.id}`)).body.steps[0].output.n);
    expect(outputs).toEqual([3, 2, 1]);
  });

  it('refuses to pause a robot not at work and to resume one not paused; a stopped robot answers 404', async () => {
    const robot = await stack.robotAtWork({ template: {} });
    await stack.api('POST', `/api/robots/${robot.robotId}/stop`);
    expect((await stack.api('POST', `/api/robots/${robot.robotId}/pause`)).status).toBe(409);
    expect((await stack.api('POST', `/api/robots/${robot.robotId}/resume`)).status).toBe(409);
    expect((await post(robot.webhookUrl, '{}')).status).toBe(404);
  });
});
