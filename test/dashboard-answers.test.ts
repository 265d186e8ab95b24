/**
 * Issue 54 item 7 on the run page, in a real browser (Debian's chromium, as test/dashboard.test.ts):
 * a run whose every placeholder came out empty says so with its hint, to everyone who reads it; the
 * link to the Temporal Web UI is offered to the operator (the admin token) and to no workspace key.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';

let stack: Stack;
let browser: Browser;
let runId: string;
let ownerKey: string;

beforeAll(async () => {
  const executablePath = process.env.CHROMIUM_BIN;
  if (!executablePath) throw new Error('CHROMIUM_BIN is not set: run the tests with `npm test` (scripts/browser.sh)');
  stack = await startStack({ TEMPORAL_UI_URL: 'http://127.0.0.1:8233' });
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  const robot = await stack.robotAtWork({ template: { order: '{{trigger.order.id}}' } });
  await stack.send('POST', robot.webhookUrl, '{"orderId":7}');
  const [run] = await waitFor(
    () => stack.runs(robot.robotId),
    (runs) => runs[0]?.status === 'succeeded',
  );
  runId = run.id;
  ownerKey = (
    await stack.client.json<{ key: string }>('POST', '/api/workspaces/default/keys', { name: 'Ann', role: 'owner' })
  ).key;
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** A page of its own, signed in with `credential`, on the run's page once it has loaded. */
async function runPageAs(credential: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1200, height: 1000 } })).newPage();
  await page.goto(stack.baseUrl + '/');
  await page.getByLabel('Key or admin token').fill(credential);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Robots' }).waitFor();
  await page.goto(`${stack.baseUrl}/runs/${runId}`);
  await page.getByRole('heading', { name: 'Run succeeded' }).waitFor();
  return page;
}

const HINT =
  "Hint: every placeholder in this run's steps came out empty: check the paths against Fields seen; " +
  'the body format is json.';

it('the operator reads the hint and is offered the Temporal Web UI', async () => {
  const page = await runPageAs(stack.config.adminToken);
  await page.getByRole('note', { name: 'Hint' }).waitFor();
  expect(await page.getByRole('note', { name: 'Hint' }).textContent()).toBe(HINT);
  const link = page.getByRole('link', { name: 'Open in the Temporal Web UI' });
  expect(await link.getAttribute('href')).toMatch(/^http:\/\/127\.0\.0\.1:8233\/namespaces\//);
});

it("a workspace's owner reads the hint too, and is offered no Temporal Web UI", async () => {
  const page = await runPageAs(ownerKey);
  // Once the hint is shown, the run's answer is on the page: the link would be beside it.
  await page.getByRole('note', { name: 'Hint' }).waitFor();
  expect(await page.getByRole('note', { name: 'Hint' }).textContent()).toBe(HINT);
  expect(await page.getByRole('link', { name: 'Back to the robot' }).count()).toBe(1);
  expect(await page.getByRole('link', { name: 'Open in the Temporal Web UI' }).count()).toBe(0);
});
