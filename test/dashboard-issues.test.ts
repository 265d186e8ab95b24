/**
 * Issues and notification channels on the dashboard (docs/dashboard.md), in a real browser on the real
 * stack: a signed robot's forged delivery opens an issue, which the Issues page lists (its robot, kind,
 * reason, count, status, a link to the deliveries it counted) with the open ones counted in the header;
 * an editor acknowledges and resolves it there, a viewer gets no button. On Settings an editor adds a
 * webhook channel, sees its signing secret once, sends a test a local receiver verifies with the
 * `standardwebhooks` package, sees a failing channel's error, and deletes it. The receiver is on
 * loopback, so this stack sets NOTIFY_ALLOW_PRIVATE_ADDRESSES=1.
 */
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { apiClient, robotAtWork, type ApiClient } from '../src/client/api-client';
import { waitFor } from '../src/launch/os/wait';
import { screenshot, tableRows, useDashboard, type Dashboard } from './support/dashboard';
import { httpReceiver, type HttpReceiver } from './support/notification-receivers';
import { hmacSender } from './support/senders/hmac';

let dashboard: Dashboard;
let page: Page;
useDashboard((opened) => ({ page } = dashboard = opened), {
  signedIn: false,
  env: { NOTIFY_ALLOW_PRIVATE_ADDRESSES: '1' },
});

let receiver: HttpReceiver;
let editor: ApiClient;
let viewerKey: string;
let robot: { robotId: string; webhookUrl: string };
beforeAll(async () => {
  receiver = await httpReceiver();
  const { stack } = dashboard;
  const { id } = await stack.client.call('createWorkspace', { body: { name: 'Shop' } });
  const key = async (role: 'editor' | 'viewer') =>
    (await stack.client.call('createKey', { params: { id }, body: { name: role, role } })).key;
  const editorKey = await key('editor');
  viewerKey = await key('viewer');
  editor = apiClient(stack.baseUrl, editorKey);
  robot = await robotAtWork(editor, {
    template: { order: '{{trigger.order}}' },
    verification: hmacSender.verification,
    robotName: 'Orders robot',
  });
  await signInWith(page, editorKey);
});
afterAll(() => receiver?.close());

async function signInWith(on: Page, key: string): Promise<void> {
  await on.goto(dashboard.stack.baseUrl + '/');
  await on.getByLabel('Key or admin token').fill(key);
  await on.getByRole('button', { name: 'Sign in' }).click();
  await on.getByRole('heading', { name: 'Robots' }).waitFor();
}

const nav = (on: Page) => on.getByRole('navigation', { name: 'Pages' });
const issueRow = (on: Page) => tableRows(on, 'Issues').filter({ hasText: 'Orders robot' });
const channelRow = (path: string) => tableRows(page, 'Notification channels').filter({ hasText: receiver.url(path) });

describe('an issue', () => {
  it('opens at a refusal and shows on the Issues page, the open ones counted in the header', async () => {
    await nav(page).getByRole('link', { name: 'Issues (0)' }).waitFor();
    const forged = hmacSender.signedWrongly('{"order":1}', robot.webhookUrl, new Date());
    expect((await dashboard.stack.send('POST', robot.webhookUrl, forged.body, forged.headers)).status).toBe(400);

    await nav(page)
      .getByRole('link', { name: /^Issues/ })
      .click();
    await page.getByRole('heading', { name: 'Issues' }).waitFor();
    const row = issueRow(page);
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    expect(cells.slice(0, 4)).toEqual(['Orders robot', 'Refused', expect.stringMatching(/^signature/), '1']);
    expect(cells[6]).toBe('open');
    expect(await row.getByRole('link', { name: 'Orders robot' }).getAttribute('href')).toBe(`/robots/${robot.robotId}`);
    await nav(page).getByRole('link', { name: 'Issues (1)' }).waitFor();
    await screenshot(page, 'issues');

    // Its deliveries: the robot's log, filtered to the refused ones.
    await row.getByRole('link', { name: 'Deliveries' }).click();
    await page.getByRole('heading', { name: 'Orders robot' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Deliveries' }).getAttribute('aria-selected')).toBe('true');
    const filters = page.getByRole('search', { name: 'Filter deliveries' });
    expect(await filters.getByLabel('Outcome').inputValue()).toBe('rejected');
    await tableRows(page, 'Deliveries')
      .getByRole('link', { name: /^Inspect the rejected delivery/ })
      .waitFor();
    await page.goBack();
    await issueRow(page).waitFor();
  });

  it('is acknowledged, then resolved, from the page by an editor', async () => {
    const row = issueRow(page);
    await row.getByRole('button', { name: 'Acknowledge' }).click();
    await row.getByText('acknowledged', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: 'Acknowledge' }).count()).toBe(0);
    await nav(page).getByRole('link', { name: 'Issues (0)' }).waitFor();

    await row.getByRole('button', { name: 'Resolve' }).click();
    await page
      .getByRole('status')
      .getByText(/^Resolved/)
      .waitFor();
    await row.getByText('resolved', { exact: true }).waitFor();
    expect(await row.getByRole('button').count()).toBe(0);
    // The open ones no longer list it.
    await page.getByRole('form', { name: 'Filter issues' }).getByLabel('Status').selectOption('open');
    await page.getByText('No open issue.').waitFor();
    const { issues } = await editor.call('listIssues', { query: { robotId: robot.robotId } });
    expect(issues.map((i) => i.status)).toEqual(['resolved']);
  });

  it('offers a viewer no button, on Issues nor on Settings', async () => {
    const viewer = await dashboard.browser.newPage({ viewport: { width: 1200, height: 1000 } });
    try {
      await signInWith(viewer, viewerKey);
      await nav(viewer).getByRole('link', { name: 'Issues (0)' }).click();
      await issueRow(viewer).getByText('resolved', { exact: true }).waitFor();
      expect(await viewer.getByRole('table', { name: 'Issues' }).getByRole('button').count()).toBe(0);
      await nav(viewer).getByRole('link', { name: 'Settings' }).click();
      await viewer.getByRole('heading', { name: 'Notification channels' }).waitFor();
      await viewer.getByText('An editor or an owner of the workspace adds, tests and deletes channels.').waitFor();
      expect(await viewer.getByRole('form', { name: 'New channel' }).count()).toBe(0);
    } finally {
      await viewer.context().close();
    }
  });
});

describe('a webhook channel', () => {
  let secret: string;

  it('is added on Settings, its signing secret shown once with Copy', async () => {
    await nav(page).getByRole('link', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'New channel' });
    await form.getByRole('textbox', { name: 'URL' }).fill('ftp://example.com/hook');
    await form.getByRole('button', { name: 'Add channel' }).click();
    await form.getByRole('alert').getByText('must be an http:// or https:// URL').waitFor();

    await form.getByRole('textbox', { name: 'URL' }).fill(receiver.url('/ok'));
    await form.getByRole('button', { name: 'Add channel' }).click();
    const shown = page.getByRole('region', { name: 'Signing secret' });
    secret = (await shown.getByLabel('Secret value').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await shown.getByRole('button', { name: 'Copy secret' }).click();
    await shown.getByRole('status').getByText('Copied').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    await channelRow('/ok').getByText('ok', { exact: true }).waitFor();
    await screenshot(page, 'settings');

    await page.reload();
    await channelRow('/ok').waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  it('sends a test notification the receiver verifies with standardwebhooks', async () => {
    await channelRow('/ok').getByRole('button', { name: 'Send test' }).click();
    await page
      .getByRole('status')
      .getByText(`Test notification delivered to ${receiver.url('/ok')} (200).`)
      .waitFor();
    const [got] = receiver.on('/ok');
    const headers = Object.fromEntries(Object.entries(got.headers).map(([k, v]) => [k, String(v)]));
    expect(new Webhook(secret).verify(got.body, headers)).toMatchObject({ type: 'test' });
    await waitFor(
      () => channelRow('/ok').locator('td').nth(3).textContent(),
      (text) => text !== 'never',
    );
  });

  it('shows a channel whose notification failed with its error', async () => {
    const form = page.getByRole('form', { name: 'New channel' });
    await form.getByRole('textbox', { name: 'URL' }).fill(receiver.url('/fail'));
    await form.getByRole('button', { name: 'Add channel' }).click();
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await channelRow('/fail').getByRole('button', { name: 'Send test' }).click();
    await page
      .getByRole('alert')
      .getByText(/^not delivered: /)
      .waitFor();
    await channelRow('/fail')
      .locator('.error')
      .getByText(/^Last error .*: .*500/)
      .waitFor();
  });

  it('is deleted, asked first', async () => {
    await channelRow('/ok').getByRole('button', { name: 'Delete' }).click();
    await channelRow('/ok').getByRole('button', { name: 'Yes, delete' }).click();
    await waitFor(
      () => channelRow('/ok').count(),
      (n) => n === 0,
    );
    const { channels } = await editor.call('listNotificationChannels');
    expect(channels.map((c) => c.url)).toEqual([receiver.url('/fail')]);
  });
});

describe('Issues and Settings', () => {
  it('fit a phone: no wider than a 390 px window', async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    for (const [link, heading] of [
      ['Settings', 'Notification channels'],
      [/^Issues/, 'Issues'],
    ] as const) {
      await nav(page).getByRole('link', { name: link }).click();
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      await page.getByText('Loading…').waitFor({ state: 'detached' });
      expect(await page.evaluate('document.documentElement.scrollWidth - innerWidth')).toBeLessThanOrEqual(0);
    }
    await page.setViewportSize({ width: 1200, height: 1000 });
  });
});
