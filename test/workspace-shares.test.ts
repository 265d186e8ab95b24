/**
 * Fair and bounded per workspace (review R6 (a), (d)): a delivery's start carries its URL as its
 * fairness key and one over its workspace's busy URLs as its weight (src/deliveries/fair-shares.ts),
 * read here from the workflow's history; past MAX_ROBOTS_PER_WORKSPACE robots or
 * MAX_APPS_PER_WORKSPACE apps (src/domain/limits/workspace-sizes.ts) a create is refused 409 naming
 * the setting and makes nothing, while another workspace has its whole allowance. Here both are 3.
 */
import { apiClient, robotAtWork } from '../src/client/api-client';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { waitFor } from '../src/launch/os/wait';
import { startStack, type Stack } from './support/stack';

const TRIGGER_IDENTIFIER = defineSearchAttributeKey('TriggerIdentifier', SearchAttributeType.KEYWORD);

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ MAX_ROBOTS_PER_WORKSPACE: '3', MAX_APPS_PER_WORKSPACE: '3' }, { worker: false });
});
afterAll(() => stack.close());

/** A workspace made by the admin, and an editor's client of it. */
async function editorOfNewWorkspace(name: string) {
  const { id } = await stack.client.call('createWorkspace', { body: { name } });
  const { key } = await stack.client.call('createKey', { params: { id }, body: { name: 'editor', role: 'editor' } });
  return apiClient(stack.baseUrl, key);
}

const app = (name: string) => ({ name, supportsInboundTrigger: true });
const robot = (name: string, appId: string) => ({
  name,
  trigger: { appId },
  steps: [{ name: 's', type: 'compose', template: { ok: true } }],
});

it('refuses a fourth app and a fourth robot of one workspace, 409 naming the setting; another workspace makes its own', async () => {
  const editor = await editorOfNewWorkspace('full');
  const apps = [];
  for (const name of ['a', 'b', 'c']) apps.push(await editor.call('createApp', { body: app(name) }));
  const thirdApp = await editor.request<{ error: string }>('POST', '/api/apps', app('d'));
  expect(thirdApp.status).toBe(409);
  expect(thirdApp.body.error).toBe(
    'over MAX_APPS_PER_WORKSPACE: this workspace holds 3 apps, as many as it may (delete one, or raise the setting)',
  );
  for (const name of ['r1', 'r2', 'r3']) {
    expect((await editor.request('POST', '/api/robots', robot(name, apps[0].id))).status).toBe(201);
  }
  const thirdRobot = await editor.request<{ error: string }>('POST', '/api/robots', robot('r4', apps[1].id));
  expect(thirdRobot.status).toBe(409);
  expect(thirdRobot.body.error).toMatch(/^over MAX_ROBOTS_PER_WORKSPACE: this workspace holds 3 robots/);
  const listed = await editor.call('listApps');
  expect(listed.apps).toHaveLength(3);

  const other = await editorOfNewWorkspace('other');
  const otherApp = await other.call('createApp', { body: app('a') });
  expect((await other.request('POST', '/api/robots', robot('r1', otherApp.id))).status).toBe(201);
});

/** Sends one delivery to the robot's URL; the fairness key and weight its workflow was started with. */
async function deliver(robot: { robotId: string; webhookUrl: string }) {
  expect((await stack.send('POST', robot.webhookUrl, '{"n":1}')).status).toBe(200);
  const [started] = await waitFor(
    async () => {
      const found = [];
      for await (const w of stack.temporal.workflow.list({ query: `RobotId = "${robot.robotId}"` })) found.push(w);
      return found;
    },
    (found) => found.length === 1,
  );
  const history = await stack.temporal.workflow.getHandle(started.workflowId).fetchHistory();
  const priority = history.events?.[0]?.workflowExecutionStartedEventAttributes?.priority;
  const identifier = started.typedSearchAttributes.get(TRIGGER_IDENTIFIER);
  return {
    keyIsItsUrl: priority?.fairnessKey === identifier && identifier !== undefined,
    weight: priority?.fairnessWeight,
  };
}

it("weighs a delivery's start by its workspace's busy URLs, its URL the key: workspace first, then URL", async () => {
  const many = await editorOfNewWorkspace('three robots');
  const one = await editorOfNewWorkspace('one robot');
  const robots = [];
  for (const name of ['a', 'b', 'c']) robots.push(await robotAtWork(many, { template: {}, robotName: name }));
  const alone = await robotAtWork(one, { template: {} });
  const started = [];
  for (const robot of robots) started.push(await deliver(robot));
  // Each URL its own key; the third busy URL of the workspace has a third of its share.
  expect(started).toEqual([
    { keyIsItsUrl: true, weight: 1 },
    { keyIsItsUrl: true, weight: 0.5 },
    { keyIsItsUrl: true, weight: expect.closeTo(1 / 3, 5) },
  ]);
  // Another workspace's one robot has a whole share.
  expect(await deliver(alone)).toEqual({ keyIsItsUrl: true, weight: 1 });
});
