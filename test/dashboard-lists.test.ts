/**
 * Safety rails, lists that scale and layout (issue 54, items 4 to 6) in a real browser as a person
 * uses them (Debian's chromium through playwright-core, the real service): Stop asks first and
 * offers Pause; Rotate token says what senders get; the Keys page marks "your key" and offers no
 * Revoke for the workspace's last owner key; a key revoked while a page is open brings sign-in over
 * the page, saying why, and what was typed stays; the robots list at 10,000 robots pages both ways,
 * filters by state, and Back returns to the page; the audit log filters and exports CSV, its
 * resources named and linked; no page is wider than the window at 1280 and 390 px; each page has
 * its title.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import type { Stack } from './support/stack';
import { screenshot, tableRows, useDashboard } from './support/dashboard';
import { waitFor } from '../src/launch/os/wait';
import { apiClient } from '../src/client/api-client';
import { rawCollection } from '../src/storage/writes';
import { storedRobotDoc } from './support/robots';
import { ROBOT_STATES } from '../src/domain/types';
import type { RobotDoc } from '../src/storage/documents';

let stack: Stack;
let page: Page;
useDashboard((opened) => ({ stack, page } = opened), { signedIn: false });

/** Robots stored besides the one made through the API: 10,000 in all. */
const STORED = 9_999;
let workspaceId: string;
let ownerKey: string;
let robotId: string;

/**
 * A workspace with an owner key and 10,000 robots: one made through the API and put to work, the
 * others stored as the service stores them, a quarter in each state.
 */
beforeAll(async () => {
  workspaceId = (await stack.client.json<{ id: string }>('POST', '/api/workspaces', { name: 'Big shop' })).id;
  const made = await stack.client.json<{ key: string }>('POST', `/api/workspaces/${workspaceId}/keys`, {
    name: 'Ann (owner)',
    role: 'owner',
  });
  ownerKey = made.key;
  const owner = apiClient(stack.baseUrl, ownerKey);
  const app = await owner.json<{ id: string }>('POST', '/api/apps', {
    name: 'orders',
    supportsInboundTrigger: true,
    bodyFormat: 'json',
  });
  robotId = (
    await owner.json<{ id: string }>('POST', '/api/robots', {
      name: 'Checkout',
      trigger: { appId: app.id },
      steps: [{ name: 's', type: 'compose', template: {} }],
    })
  ).id;
  // 9,999 more, stored: the workspace then holds as many as it may (MAX_ROBOTS_PER_WORKSPACE).
  const start = Date.now() - STORED * 1000;
  for (let from = 0; from < STORED; from += 1000) {
    const docs: RobotDoc[] = [];
    for (let i = from; i < Math.min(STORED, from + 1000); i++)
      docs.push(storedRobotDoc(workspaceId, app.id, `Robot ${i}`, ROBOT_STATES[i % 4], new Date(start + i * 1000)));
    await rawCollection(stack.models.Robot).insertMany(docs);
    // Each listed in the workspace's directory, as making it through the API does.
    const listings = docs.map((r, k) => ({
      _id: `${workspaceId}:${from + k + 2}`, // after the one made through the API
      robotId: r._id,
      name: r.name,
      createdAt: r.createdAt,
      state: r.state,
    }));
    await rawCollection(stack.models.RobotListing).insertMany(listings);
  }

  await owner.json('POST', `/api/robots/${robotId}/start`);
  await page.goto(stack.baseUrl + '/');
  await page.getByLabel('Key or admin token').fill(ownerKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Robots' }).waitFor();
}, 120_000);

const rows = (name: string) => tableRows(page, name);
const shown = () => page.getByRole('status', { name: 'Robots shown' });
const shownBecomes = (text: string) =>
  waitFor(
    () => shown().textContent(),
    (t) => t === text,
  );

it('pages the 10,000 robots forward and back, filters them by state, and Back returns to the page', async () => {
  expect(await shownBecomes('1–20 of 10,000 robots')).toBe('1–20 of 10,000 robots');
  expect(await page.title()).toBe('Robots · Webhook triggers');
  await page.getByRole('button', { name: 'Next' }).click();
  await shownBecomes('21–40 of 10,000 robots');
  await page.getByRole('button', { name: 'Next' }).click();
  await shownBecomes('41–60 of 10,000 robots');
  const third = await rows('Robots').first().textContent();
  await page.getByRole('button', { name: 'Previous' }).click();
  await shownBecomes('21–40 of 10,000 robots');
  await page.goBack();
  await shownBecomes('41–60 of 10,000 robots');
  expect(await rows('Robots').first().textContent()).toBe(third);

  await page.getByLabel('State').selectOption({ label: 'Paused' });
  await shownBecomes('1–20 of 2,500 paused robots');
  expect(new Set(await rows('Robots').locator('td:nth-child(2)').allTextContents())).toEqual(new Set(['Paused']));
  await page.getByRole('button', { name: 'Next' }).click();
  await shownBecomes('21–40 of 2,500 paused robots');
  expect(page.url()).toMatch(/state=paused&after=/);
  // A reload (or a link) shows the same page.
  await page.reload();
  await shownBecomes('21–40 of 2,500 paused robots');
  await page.getByLabel('Search by name').fill('Robot 99');
  await shownBecomes('1–20 of 28 paused robots named “Robot 99”');
  await page.goBack();
  await shownBecomes('21–40 of 2,500 paused robots');
  await screenshot(page, 'robots-filtered');
});

it('asks before Stop, offering Pause instead, and says what Rotate token does to the old URL', async () => {
  await page.goto(`${stack.baseUrl}/robots/${robotId}`);
  await page.getByRole('heading', { name: 'Checkout' }).waitFor();
  expect(await page.title()).toBe('Checkout · Webhook triggers');
  await page.getByRole('button', { name: 'Stop' }).click();
  const stop = page.getByRole('dialog', { name: 'Stop Checkout?' });
  expect(await stop.textContent()).toContain('answered 404');
  await stop.getByRole('button', { name: 'Pause instead' }).click();
  await stop.waitFor({ state: 'detached' });
  await page.getByText('Paused', { exact: true }).first().waitFor();

  // Paused, it cannot pause again: Stop asks, with no Pause offered; Cancel does nothing.
  await page.getByRole('button', { name: 'Stop' }).click();
  expect(await stop.getByRole('button', { name: 'Pause instead' }).count()).toBe(0);
  await stop.getByRole('button', { name: 'Cancel' }).click();
  await stop.waitFor({ state: 'detached' });
  const robot = await stack.client.request('GET', `/api/robots/${robotId}`, undefined, {
    'x-workspace-id': workspaceId,
  });
  expect(robot.body.state).toBe('paused');

  await page.getByRole('button', { name: 'Rotate token' }).click();
  const rotate = page.getByRole('dialog', { name: 'Rotate the token of Checkout?' });
  expect(await rotate.textContent()).toContain('paste the new URL into the sender');
  await rotate.getByLabel('The old URL keeps working for').selectOption({ label: 'no time: refused at once' });
  expect(await rotate.textContent()).toContain('answered 404 at once');
  await screenshot(page, 'robot-rotate-dialog');
  await rotate.getByRole('button', { name: 'Cancel' }).click();
  await rotate.waitFor({ state: 'detached' });

  // Tabs: Deliveries alone, then everything again.
  await page.getByRole('tab', { name: 'Deliveries' }).click();
  await page.getByRole('table', { name: 'Deliveries' }).waitFor();
  expect(await page.getByRole('table', { name: 'Run history' }).count()).toBe(0);
  await page.getByRole('tab', { name: 'Overview' }).click();
  await page.getByRole('table', { name: 'Run history' }).waitFor();
});

it('marks your key, and offers no Revoke for the last owner key', async () => {
  await page.getByRole('link', { name: 'Keys' }).click();
  const mine = rows('Keys').filter({ hasText: 'Ann (owner)' });
  await mine.waitFor();
  expect(await page.title()).toBe('Keys · Webhook triggers');
  expect(await mine.textContent()).toContain('your key');
  expect(await mine.textContent()).toContain("Cannot be revoked: it is the workspace's last owner key");
  expect(await mine.getByRole('button', { name: /Revoke/ }).count()).toBe(0);
});

it('filters the audit log by action, names and links its resources, and exports what it shows as CSV', async () => {
  await page.getByRole('link', { name: 'Audit log' }).click();
  await rows('Audit log').first().waitFor();
  expect(await page.title()).toBe('Audit log · Webhook triggers');
  await page.getByLabel('Action').selectOption('robot.pause');
  await waitFor(
    () => rows('Audit log').locator('td:nth-child(3)').allTextContents(),
    (actions) => actions.length === 1 && actions[0] === 'robot.pause',
  );
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = fs.readFileSync(await (await download).path(), 'utf8').split('\r\n');
  expect(csv[0]).toBe('at,actor,key id,action,outcome,resource,resource name,address');
  expect(csv.slice(1).filter(Boolean)).toEqual([
    expect.stringMatching(/,key Ann \(owner\),.*,robot\.pause,done,robot:.*,Checkout,/),
  ]);
  await page.getByRole('link', { name: 'Robot “Checkout”' }).click();
  await page.getByRole('heading', { name: 'Checkout' }).waitFor();
});

it('is no wider than the window at 1280 and 390 px on any page', async () => {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of ['/', `/robots/${robotId}`, '/audit', '/keys']) {
      await page.goto(stack.baseUrl + path);
      await page.locator('main h1').first().waitFor();
      await page.getByText('Loading…').waitFor({ state: 'detached' });
      const overflow = await page.evaluate('document.documentElement.scrollWidth - innerWidth');
      expect({ path, width, overflow }).toEqual({ path, width, overflow: 0 });
    }
  }
  await screenshot(page, 'robot-390px');
  await page.setViewportSize({ width: 1200, height: 1000 });
});

it('shows sign-in over the page when the key is revoked meanwhile, saying why, and keeps what was typed', async () => {
  await page.goto(`${stack.baseUrl}/robots/${robotId}`);
  await page.getByRole('button', { name: 'Rename' }).click();
  await page.getByRole('form', { name: 'Rename robot' }).getByLabel('Name').fill('Checkout (half typed)');
  // Another owner, then the admin revokes Ann's key: the page's next read is refused.
  const other = await stack.client.json<{ key: string }>('POST', `/api/workspaces/${workspaceId}/keys`, {
    name: 'Bob (owner)',
    role: 'owner',
  });
  const keys = await stack.client.json<{ keys: { id: string; name: string }[] }>(
    'GET',
    `/api/workspaces/${workspaceId}/keys`,
  );
  const ann = keys.keys.find((k) => k.name === 'Ann (owner)')!;
  const revoked = await stack.client.request('DELETE', `/api/keys/${ann.id}`, undefined, {
    'x-workspace-id': workspaceId,
  });
  expect(revoked.status).toBe(200);
  const signIn = page.getByRole('region', { name: 'Sign in' });
  await signIn.getByRole('alert').filter({ hasText: 'it was revoked or has expired' }).waitFor();
  await screenshot(page, 'signed-out-over-page');
  await signIn.getByLabel('Key or admin token').fill(other.key);
  await signIn.getByRole('button', { name: 'Sign in' }).click();
  await signIn.waitFor({ state: 'detached' });
  expect(await page.getByRole('form', { name: 'Rename robot' }).getByLabel('Name').inputValue()).toBe(
    'Checkout (half typed)',
  );
});
