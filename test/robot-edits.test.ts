/**
 * A robot edited after its first delivery, over HTTP on the real stack: a PATCH checked like a
 * creation, each delivery run with the steps the robot had when it was accepted (docs/api.md).
 */
import { startStack, type Stack } from './support/stack';
import { StepsVersions } from '../src/robots/steps-versions';
import { finishedRuns } from './support/robot-waits';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const post = (url: string, body: string) => stack.send('POST', url, body);

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
    const app = await stack.client.call('editApp', { params: { id: robot.appId }, body: { name: 'Shop' } });
    expect(app).toMatchObject({ name: 'Shop', bodyFormat: 'json', verification: null });
  });

  it('runs a delivery with the steps the robot had when it was accepted, and the next with the new ones', async () => {
    const robot = await stack.robotAtWork({ template: { old: '{{trigger.n}}' } });
    expect((await post(robot.webhookUrl, '{"n":1}')).status).toBe(200);
    const [first] = await finishedRuns(stack, robot.robotId, 1);
    const edited = await stack.client.call('editRobot', {
      params: { id: robot.robotId },
      body: {
        steps: [
          { name: 'one', type: 'compose', template: { new: '{{trigger.n}}' } },
          { name: 'two', type: 'compose', template: 'second' },
        ],
      },
    });
    expect(edited.stepsVersion).toBe(1);
    expect((await post(robot.webhookUrl, '{"n":2}')).status).toBe(200);
    const runs = await finishedRuns(stack, robot.robotId, 2);
    const second = runs.find((r) => r.id !== first.id);

    // The first run still shows (and ran) the steps of its time; the second the new ones.
    const before = await stack.client.call('getRun', { params: { id: first.id } });
    expect(before.steps).toEqual([{ name: 'compose', status: 'succeeded', output: { old: 1 } }]);
    const after = await stack.client.call('getRun', { params: { id: second.id } });
    expect(after.steps).toEqual([
      { name: 'one', status: 'succeeded', output: { new: 2 } },
      { name: 'two', status: 'succeeded', output: 'second' },
    ]);
    const deliveries = await stack.deliveries(robot.robotId);
    expect(deliveries.map((d) => d.stepsVersion).sort()).toEqual([0, 1]);
  });
});

describe('steps versions', () => {
  const compose = (name: string) => [{ name, type: 'compose' as const, template: name }];

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
    const edited = await stack.client.call('editRobot', {
      params: { id: robot.robotId },
      body: { steps: compose('new') },
    });
    expect(edited.stepsVersion).toBe(1);
    const versions = () => new StepsVersions(stack.models);
    const stored = [{ name: 'compose', type: 'compose', templateJson: '{"v":0}' }];
    expect(await versions().get(robot.robotId, 0)).toEqual(stored);

    // Without its document (as a worker that read before the edit stored it finds), version 0 is
    // not found rather than taken from the robot's steps of now.
    await stack.models.RobotSteps.deleteOne({ _id: `${robot.robotId}:0` });
    await expect(versions().get(robot.robotId, 0)).rejects.toThrow(/has no steps version 0/);
  });
});
