/** Made-up identifiers cost no database read each and never push a real trigger out of the cache. */
import { randomUUID } from 'node:crypto';
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/runtime/wait';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ TRIGGER_CACHE_TTL_MS: '60000' }, { worker: false });
});
afterAll(() => stack.close());

it('answers a spray of unknown identifiers with 404 and at most one read of the robots', async () => {
  const robot = await stack.robotAtWork();
  const base = robot.webhookUrl.slice(0, robot.webhookUrl.indexOf('/api/webhooks/'));
  // The real trigger is looked up once and cached.
  expect((await stack.send('POST', robot.webhookUrl, '')).status).toBe(200);
  const find = jest.spyOn(stack.models.Robot, 'find');
  const findOne = jest.spyOn(stack.models.Robot, 'findOne');
  try {
    for (let i = 0; i < 300; i++) {
      const res = await stack.send('POST', `${base}/api/webhooks/custom:${randomUUID()}/t${i}`, '{}');
      expect(res.status).toBe(404);
    }
    expect(find.mock.calls.length + findOne.mock.calls.length).toBeLessThanOrEqual(1);
    // And the real trigger is still served from the cache: no read at all.
    const reads = find.mock.calls.length + findOne.mock.calls.length;
    expect((await stack.send('POST', robot.webhookUrl, '')).status).toBe(200);
    expect(find.mock.calls.length + findOne.mock.calls.length).toBe(reads);
  } finally {
    find.mockRestore();
    findOne.mockRestore();
  }
});

it('knows a robot put to work through this receiver at once', async () => {
  const robot = await stack.robotAtWork();
  expect((await stack.send('POST', robot.webhookUrl, '')).status).toBe(200);
  await stack.api('POST', `/api/robots/${robot.robotId}/stop`);
  expect((await stack.send('POST', robot.webhookUrl, '')).status).toBe(404);
});

it('answers a robot put to work, or a token rotated, through another receiver at once', async () => {
  const other = await stack.addReceiver();
  const onOther = (url: string) => other + new URL(url).pathname;
  // The other receiver has read the set of triggers (a 60-second TTL here) before the robot exists.
  expect((await stack.send('POST', `${other}/api/webhooks/custom:${randomUUID()}/t`, '{}')).status).toBe(404);
  const robot = await stack.robotAtWork();
  expect((await stack.send('POST', onOther(robot.webhookUrl), '')).status).toBe(200);
  // Its token rotated through the first receiver: the other takes the new one at once.
  const rotated = await stack.api('POST', `/api/robots/${robot.robotId}/trigger/rotate`, { graceHours: 0 });
  expect((await stack.send('POST', onOther(rotated.body.trigger.card.webhookUrl), '')).status).toBe(200);
});

it('takes a stop, a pause or a revoked token made through another receiver by its watch of the stamp, not after the TTL', async () => {
  const other = await stack.addReceiver();
  const onOther = (url: string) => other + new URL(url).pathname;
  const robot = await stack.robotAtWork();
  // The other receiver serves the robot, and would keep it for its 60-second TTL: each change below
  // must reach it by its watch of the stamp (every STAMP_POLL_MS), long before.
  expect((await stack.send('POST', onOther(robot.webhookUrl), '')).status).toBe(200);
  const answersOnOther = (url: string) => async () => (await stack.send('POST', onOther(url), '')).status;
  // Revoked: rotated with no grace through the first receiver.
  await stack.api('POST', `/api/robots/${robot.robotId}/trigger/rotate`, { graceHours: 0 });
  await waitFor(answersOnOther(robot.webhookUrl), (status) => status === 404, 20_000);
  // Stopped through the first receiver.
  const { webhookUrl } = (await stack.client.json('GET', `/api/robots/${robot.robotId}`)).trigger.card;
  expect((await stack.send('POST', onOther(webhookUrl), '')).status).toBe(200);
  await stack.api('POST', `/api/robots/${robot.robotId}/stop`);
  await waitFor(answersOnOther(webhookUrl), (status) => status === 404, 20_000);
});
