/**
 * The dashboard's keys and audit log pages with workspaces (src/domain/workspaces.ts), in a real
 * browser as people use it (test/support/dashboard-workspaces.ts): A's owner makes a key, shown
 * once, and revokes it, then reads A's audit log and nothing of B's; A's viewer reads the log
 * without the client addresses and is told the keys are not for a viewer; both pages are served.
 */
import { apiClient } from '../src/client/api-client';
import { waitFor } from '../src/launch/os/wait';
import { screenshot as shot, tableRows as rows } from './support/dashboard';
import { everything, useTwoWorkspaces, type Workspace } from './support/dashboard-workspaces';
import type { Stack } from './support/stack';

let stack: Stack;
let a: Workspace;
let b: Workspace;
let viewerOfA: string;
let refundsOfA: string;
const { signedInPage } = useTwoWorkspaces((opened) => {
  ({ stack, a, b, viewerOfA, refundsOfA } = opened);
});

describe("A's owner", () => {
  const person = signedInPage(() => a.owner.key);

  it('makes a key, shown once, that works until it is revoked', async () => {
    await person.page.getByRole('link', { name: 'Keys' }).click();
    await person.page.getByRole('heading', { name: 'Keys of Workspace A' }).waitFor();
    await rows(person.page, 'Keys').filter({ hasText: 'Viewer of A' }).waitFor();
    expect(await rows(person.page, 'Keys').filter({ hasText: 'Owner of Workspace A' }).count()).toBe(1);
    expect(await rows(person.page, 'Keys').filter({ hasText: 'Owner of Workspace B' }).count()).toBe(0);

    const form = person.page.getByRole('form', { name: 'New key' });
    await form.getByLabel('Key name').fill('Deploys');
    await form.getByLabel('Role').selectOption('editor');
    await form.getByRole('button', { name: 'Create key' }).click();
    const made = person.page.getByRole('region', { name: 'Key made' });
    await made.getByText('copy it now, it is not shown again.').waitFor();
    const value = (await made.getByLabel('Key value').textContent())!;
    expect(value).toMatch(/^whk_[0-9a-f-]{36}_[A-Za-z0-9_-]{43}$/);
    await made.getByRole('button', { name: 'Copy key' }).click();
    await made.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    expect(await person.page.evaluate('navigator.clipboard.readText()')).toBe(value);
    await shot(person.page, 'keys-made');
    const deploys = apiClient(stack.baseUrl, value);
    expect((await deploys.request('GET', '/api/me')).body).toMatchObject({ role: 'editor', workspace: { id: a.id } });

    // Once dismissed, the value is nowhere on the person.page; the list shows the key, never its value.
    await made.getByRole('button', { name: 'I have copied it' }).click();
    await made.waitFor({ state: 'detached' });
    const row = rows(person.page, 'Keys').filter({ hasText: 'Deploys' });
    expect(await row.locator('td').allTextContents()).toEqual([
      'Deploys',
      'editor',
      expect.any(String),
      'never',
      expect.any(String),
      'no',
      'Revoke',
    ]);
    expect(await everything(person.page)).not.toContain(value);

    await row.getByRole('button', { name: 'Revoke key Deploys' }).click();
    await row.getByRole('button', { name: 'Yes, revoke' }).click();
    await waitFor(
      () => row.locator('td').nth(5).textContent(),
      (text) => text !== 'no',
    );
    expect(await row.getByRole('button', { name: 'Revoke key Deploys' }).count()).toBe(0);
    expect((await deploys.request('GET', '/api/me')).status).toBe(401);
  });

  it('reads the audit log of A: the key made and revoked, by whom, newest first; nothing of B', async () => {
    await person.page.getByRole('link', { name: 'Audit log' }).click();
    const log = rows(person.page, 'Audit log');
    await log.filter({ hasText: 'key.revoke' }).waitFor();
    const entries = await Promise.all(
      Array.from({ length: await log.count() }, (_, i) => log.nth(i).locator('td').allTextContents()),
    );
    // A key is shown as a key, its name quoted and its id, never as a bare name that could read "admin".
    const owner = `Key “Owner of Workspace A” ${a.owner.id}`;
    const from = expect.stringContaining('127.0.0.1');
    // Resources by name as they are now (test/dashboard-lists.test.ts): the key revoked, and made, is Deploys.
    const key = 'Key “Deploys”';
    expect(entries[0]).toEqual([expect.any(String), owner, 'key.revoke', 'done', key, from]);
    expect(entries[1]).toEqual([expect.any(String), owner, 'key.create', 'done', key, from]);
    expect(entries.map((e) => e[2])).toEqual(expect.arrayContaining(['robot.create', 'robot.start', 'app.create']));
    expect(entries.some((e) => e[4] === 'Robot “Refunds of A”')).toBe(true);
    const refunds = person.page.getByRole('link', { name: 'Robot “Refunds of A”' }).first();
    expect(await refunds.getAttribute('href')).toBe(`/robots/${refundsOfA}`);
    expect(await everything(person.page)).not.toContain(b.robot.robotId);
    await shot(person.page, 'audit-log');
  });
});

describe("A's viewer", () => {
  const person = signedInPage(() => viewerOfA);

  it("reads A's audit log without the client addresses, which are the owners'", async () => {
    await person.page.getByRole('link', { name: 'Audit log' }).click();
    await rows(person.page, 'Audit log').filter({ hasText: 'key.revoke' }).waitFor();
    const headers = await person.page.getByRole('table', { name: 'Audit log' }).locator('th').allTextContents();
    expect(headers).toEqual(['When', 'Who', 'Action', 'Outcome', 'Resource']);
    expect(await everything(person.page)).not.toContain('127.0.0.1');
  });

  it('is told the keys are not for a viewer, and listed none', async () => {
    // As a link to the person.page, kept from elsewhere, opens it (no Keys link is offered to a viewer).
    await person.page.evaluate("history.pushState(null, '', '/keys'); dispatchEvent(new PopStateEvent('popstate'))");
    await person.page.getByText('Only an owner of the workspace, or the admin, manages its keys.').waitFor();
    expect(await person.page.getByRole('table', { name: 'Keys' }).count()).toBe(0);
  });
});

it('serves the pages of keys and of the audit log, so that a reload or a link opens them', async () => {
  for (const p of ['/keys', '/audit']) {
    const res = await fetch(stack.baseUrl + p);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
  }
});
