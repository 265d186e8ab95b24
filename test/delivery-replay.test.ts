/**
 * Deliveries replayed over HTTP on the real stack: a failed one once its format is fixed, one whose
 * body is large or gone, many at once (docs/api.md).
 */
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';
import { bodyBlobId, discardBlob } from '../src/storage/blobs';
import { releaseBody } from '../src/storage/body-refs';
import { deliveriesOnce, finishedRuns } from './support/robot-waits';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const post = (url: string, body: string) => stack.send('POST', url, body);

describe('replay', () => {
  it('replays a delivery that failed once the format is fixed, as a new delivery marked replayOf', async () => {
    const robot = await stack.robotAtWork({ bodyFormat: 'json', template: { name: '{{trigger.order.name}}' } });
    const xml = '<order><name>Ann</name></order>';
    expect((await post(robot.webhookUrl, xml)).status).toBe(200);
    const [failed] = await deliveriesOnce(stack, robot.robotId, 1);
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
    const [run] = await finishedRuns(stack, robot.robotId, 1);
    expect((await stack.client.call('getRun', { params: { id: run.id } })).steps[0].output).toEqual({ name: 'Ann' });

    // A second replay is the second: its own key, its own run.
    const again = await stack.api('POST', `/api/deliveries/${failed.id}/replay`);
    expect(again.status).toBe(202);
    const second = await waitFor(
      () => stack.api('GET', `/api/deliveries/${again.body.deliveryId}`),
      (r) => r.status === 200,
    );
    expect(second.body.workflowId).toContain(`replay:${failed.id}:2`);
    await finishedRuns(stack, robot.robotId, 2);
  });

  it("a replay refers to its original's large body, copies none of it, and keeps it past the original's removal", async () => {
    const robot = await stack.robotAtWork({ bodyFormat: 'text', template: { size: '{{trigger}}' } });
    const big = 'x'.repeat(stack.config.inlineBodyBytes + 1);
    expect((await post(robot.webhookUrl, big)).status).toBe(200);
    const [original] = await deliveriesOnce(stack, robot.robotId, 1);
    await stack.client.call('pause', { params: { id: robot.robotId } });
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
    await stack.client.call('resume', { params: { id: robot.robotId } });
    const replayed = await waitFor(
      () => stack.api('GET', `/api/deliveries/${replayId}`),
      (r) => r.status === 200,
    );
    expect(replayed.body).toMatchObject({ outcome: 'processed', runCount: 1, replayOf: original.id });
    const runs = await finishedRuns(stack, robot.robotId, 2);
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
    await stack.client.call('pause', { params: { id: robot.robotId } });
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
    await stack.client.call('resume', { params: { id: robot.robotId } });
    const [failed] = await deliveriesOnce(stack, robot.robotId, 1);
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
    const logged = await deliveriesOnce(stack, robot.robotId, 3);
    expect(logged.filter((d) => d.outcome === 'failed')).toHaveLength(2);

    await stack.client.call('editApp', { params: { id: robot.appId }, body: { bodyFormat: 'text' } });
    const since = new Date(Date.now() - 60_000).toISOString();
    const bulk = await stack.api('POST', `/api/robots/${robot.robotId}/deliveries/replay`, {
      outcome: 'failed',
      since,
    });
    expect(bulk.status).toBe(202);
    expect(bulk.body.deliveryIds).toHaveLength(2);
    expect(bulk.body.nextCursor).toBeNull();
    const all = await deliveriesOnce(stack, robot.robotId, 5);
    const replays = all.filter((d) => d.replayOf);
    expect(replays.map((d) => d.outcome)).toEqual(['processed', 'processed']);

    const future = new Date(Date.now() + 60_000).toISOString();
    const none = await stack.client.call('replayDeliveries', {
      params: { id: robot.robotId },
      body: { outcome: 'failed', since: future },
    });
    expect(none.deliveryIds).toEqual([]);
    expect((await stack.api('POST', '/api/deliveries/nope/replay')).status).toBe(404);
    await stack.client.call('stop', { params: { id: robot.robotId } });
    const stopped = await stack.api('POST', `/api/deliveries/${logged[0].id}/replay`);
    expect(stopped.status).toBe(409);
    expect(stopped.body.error).toMatch(/not at work/);
  });
});
