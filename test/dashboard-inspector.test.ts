/**
 * The delivery inspector in a real browser (./support/dashboard.ts), as a person debugging a webhook
 * would use it: GitHub sends a form-encoded push and a refused one; each opens from the deliveries
 * log to its headers (a credential masked) and its body (form fields pretty, the raw text); the log
 * filters on the server by outcome and event name; a large body is read a part at a time.
 */
import type { Locator, Page } from 'playwright-core';
import { waitFor } from '../src/launch/os/wait';
import { sign } from '@octokit/webhooks-methods';
import type { Stack } from './support/stack';
import { screenshot, tableRows, tableRowsBecome, useDashboard } from './support/dashboard';
import { robotAtWork } from '../src/client/api-client';
import { MASKED } from '../src/domain/inspection';
import { BODY_PAGE_BYTES } from '../src/domain/limits';
import { githubPush } from './support/github-push';

let stack: Stack;
let page: Page;
useDashboard((opened) => ({ stack, page } = opened), { signedIn: true });

// Built at run time, so nothing here looks like a real secret.
const secret = 'inspector-' + 'secret'.repeat(4);

const githubHeaders = async (body: string, key: string, event: string) => ({
  'content-type': 'application/x-www-form-urlencoded',
  'x-github-event': event,
  'x-github-delivery': `delivery-${event}-${key.length}`,
  'x-hub-signature-256': await sign({ secret: key, algorithm: 'sha256' }, body),
  authorization: 'Bearer zzz-not-to-be-seen',
});

/** Opens the robot's page, its Deliveries, and the delivery whose row's link names `outcome`. */
async function inspect(robotId: string, outcome: string) {
  await page.goto(`${stack.baseUrl}/robots/${robotId}`);
  const deliveries = page.getByRole('tab', { name: /Deliveries/ });
  if (await deliveries.count()) await deliveries.click();
  await page.getByRole('link', { name: new RegExp(`^Inspect the ${outcome} delivery`) }).click();
  await page.getByRole('heading', { name: /^Delivery/ }).waitFor();
}

const header = async (name: string) =>
  page
    .getByRole('table', { name: 'Headers' })
    .getByRole('row', { name: new RegExp(`^${name} `) })
    .textContent();

it('opens a form-encoded GitHub push and a refused one to their headers and bodies', async () => {
  const robot = await robotAtWork(stack.client, {
    template: { ref: '{{trigger.ref}}' },
    verification: { scheme: 'github', secret },
  });
  const body = new URLSearchParams({ payload: JSON.stringify(githubPush) }).toString();
  expect((await stack.send('POST', robot.webhookUrl, body, await githubHeaders(body, secret, 'push'))).status).toBe(
    200,
  );
  const forged = new URLSearchParams({ payload: '{"ref":"refs/heads/evil"}' }).toString();
  const refused = await githubHeaders(forged, 'not-' + secret, 'issues');
  expect((await stack.send('POST', robot.webhookUrl, forged, refused)).status).toBe(400);

  await inspect(robot.robotId, 'processed');
  expect(await page.getByRole('heading', { name: /^Delivery/ }).textContent()).toContain('push');
  expect(await header('x-github-event')).toBe('x-github-eventpush');
  expect(await header('authorization')).toBe(`authorization${MASKED}`);
  expect(await page.content()).not.toContain('zzz-not-to-be-seen');
  expect(await page.getByRole('list', { name: 'Runs' }).getByRole('link').count()).toBe(1);
  // Pretty: its form fields; raw: the text as it came.
  const fields = page.getByRole('table', { name: 'Form fields' });
  expect(await fields.getByRole('row').nth(1).locator('th, td').first().textContent()).toBe('payload');
  await screenshot(page, 'inspector');
  await page.getByRole('button', { name: 'Raw' }).click();
  expect(await page.getByLabel('Body (raw)').textContent()).toBe(body);

  await inspect(robot.robotId, 'rejected');
  expect(await page.getByLabel('Answer').textContent()).toMatch(/^Refused \(400\): .*signature/);
  expect(await header('x-github-event')).toBe('x-github-eventissues');
  await page.getByRole('button', { name: 'Raw' }).click();
  expect(await page.getByLabel('Body (raw)').textContent()).toBe(forged);
});

it('filters the deliveries log on the server by outcome and event name', async () => {
  const robot = await robotAtWork(stack.client, { template: { n: '{{trigger.n}}' } });
  for (const [n, type] of [
    [1, 'invoice.paid'],
    [2, 'customer.created'],
    [3, 'invoice.paid'],
  ] as const) {
    const sent = await stack.send('POST', robot.webhookUrl, JSON.stringify({ n, type }), {
      'content-type': 'application/json',
    });
    expect(sent.status).toBe(200);
  }
  await page.goto(`${stack.baseUrl}/robots/${robot.robotId}`);
  const deliveries = page.getByRole('tab', { name: /Deliveries/ });
  if (await deliveries.count()) await deliveries.click();
  await tableRowsBecome(page, 'Deliveries', 3);
  const filters = page.getByRole('search', { name: 'Filter deliveries' });
  await filters.getByLabel('Event name').fill('INVOICE');
  await tableRowsBecome(page, 'Deliveries', 2);
  expect(await tableRows(page, 'Deliveries').locator('code').allTextContents()).toEqual([
    'invoice.paid',
    'invoice.paid',
  ]);
  await filters.getByLabel('Outcome').selectOption('rejected');
  await tableRowsBecome(page, 'Deliveries', 0);
  await page.getByText('No delivery matches.').waitFor();
});

it('reads a large body a part at a time', async () => {
  const robot = await robotAtWork(stack.client, { template: { t: '{{trigger}}' }, bodyFormat: 'text' });
  const body = 'line of text\n'.repeat(Math.ceil((BODY_PAGE_BYTES * 2.5) / 13));
  expect((await stack.send('POST', robot.webhookUrl, body, { 'content-type': 'text/plain' })).status).toBe(200);
  await inspect(robot.robotId, 'processed');
  const raw = page.getByLabel('Body (raw)');
  const parts: string[] = [];
  for (;;) {
    parts.push((await raw.textContent())!);
    const next = page.getByRole('button', { name: 'Next part' });
    if (await next.isDisabled()) break;
    await next.click();
    await waitForChange(raw, parts.at(-1)!);
  }
  expect(parts).toHaveLength(3);
  expect(parts.join('')).toBe(body);
  expect(await page.getByText(/^Bytes /).textContent()).toMatch(/of [\d,]+$/);
});

/** Waits until the locator's text is no longer `before` (the next part was read). */
const waitForChange = (locator: Locator, before: string) =>
  waitFor(
    () => locator.textContent(),
    (text) => text !== before,
  );
