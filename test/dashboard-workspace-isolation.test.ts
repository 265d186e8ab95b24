/**
 * The dashboard with workspaces kept apart (src/domain/workspaces.ts), in a real browser as people
 * use it (test/support/dashboard-workspaces.ts): A's owner sees A's robots, finds them by name and
 * finds B's robot not found; B's owner sees nothing of A's; the admin switches between workspaces,
 * manages the keys of the one chosen and makes one.
 */
import { waitFor } from '../src/launch/os/wait';
import { screenshot as shot, tableRows as rows } from './support/dashboard';
import { everything, robotLink, useTwoWorkspaces, type Workspace } from './support/dashboard-workspaces';
import type { Stack } from './support/stack';

let stack: Stack;
let a: Workspace;
let b: Workspace;
let runOfA: string;
const { signedInPage } = useTwoWorkspaces((opened) => {
  ({ stack, a, b, runOfA } = opened);
});

describe("A's owner", () => {
  const person = signedInPage(() => a.owner.key);

  it("sees who is signed in, A's robots and nothing of B's", async () => {
    await robotLink(person.page, 'Invoices of A').waitFor();
    await robotLink(person.page, 'Refunds of A').waitFor();
    expect(await person.page.getByLabel('Signed in').textContent()).toBe(
      `Owner of Workspace A (key ${a.owner.id}) (owner) in Workspace A`,
    );
    expect(await rows(person.page, 'Robots').count()).toBe(2);
    const html = await everything(person.page);
    expect(html).not.toContain('Payroll of B');
    expect(html).not.toContain(b.robot.robotId);
    // "New robot" is at the top: it opens its form above the list.
    await person.page.getByRole('button', { name: 'New robot' }).click();
    const form = person.page.getByRole('form', { name: 'New robot' });
    await form.getByLabel('Robot name').waitFor();
    const top = async (what: typeof form) => (await what.boundingBox())!.y;
    expect(await top(form)).toBeLessThan(await top(person.page.getByRole('table', { name: 'Robots' })));
    expect(await top(person.page.getByRole('button', { name: 'New robot' }))).toBeLessThan(await top(form));
    await shot(person.page, 'robots-new-robot');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
    // An owner is offered the keys, and no workspace switcher (the admin's).
    await person.page.getByRole('link', { name: 'Keys' }).waitFor();
    expect(await person.page.getByLabel('Workspace', { exact: true }).count()).toBe(0);
  });

  it("finds robots by name: only those whose name holds what is typed, and all again once it's cleared", async () => {
    await person.page.getByLabel('Search by name').fill('refund');
    await waitFor(
      () => rows(person.page, 'Robots').allTextContents(),
      (texts) => texts.length === 1 && texts[0].startsWith('Refunds of A'),
    );
    expect(await robotLink(person.page, 'Invoices of A').count()).toBe(0);

    await person.page.getByLabel('Search by name').fill('nothing like it');
    await person.page.getByText("No robot's name holds “nothing like it”.").waitFor();
    expect(await rows(person.page, 'Robots').count()).toBe(0);

    await person.page.getByLabel('Search by name').fill('');
    await robotLink(person.page, 'Invoices of A').waitFor();
    expect(await rows(person.page, 'Robots').count()).toBe(2);
  });

  it("finds B's robot and run not found, with nothing of theirs shown", async () => {
    await person.page.goto(`${stack.baseUrl}/robots/${b.robot.robotId}`);
    await person.page.getByText('No such robot.').waitFor();
    const html = await everything(person.page);
    expect(html).not.toContain('Payroll of B');
    expect(html).not.toContain(b.robot.webhookUrl);
    expect(await person.page.getByLabel('Webhook URL').count()).toBe(0);
  });
});

describe("B's owner", () => {
  const person = signedInPage(() => b.owner.key);

  it("sees B's robot only: not A's names, run or URL", async () => {
    await robotLink(person.page, 'Payroll of B').waitFor();
    expect(await rows(person.page, 'Robots').count()).toBe(1);
    let html = await everything(person.page);
    for (const text of ['Invoices of A', 'Refunds of A', a.robot.robotId]) expect(html).not.toContain(text);

    await robotLink(person.page, 'Payroll of B').click();
    await person.page.getByRole('heading', { name: 'Payroll of B' }).waitFor();
    expect(await person.page.getByLabel('Webhook URL').textContent()).toBe(b.robot.webhookUrl);
    await person.page.getByText('No runs yet.').waitFor();
    html = await everything(person.page);
    expect(html).not.toContain(a.robot.webhookUrl);
    expect(html).not.toContain(runOfA);
  });

  it("finds A's robot and run not found", async () => {
    await person.page.goto(`${stack.baseUrl}/robots/${a.robot.robotId}`);
    await person.page.getByText('No such robot.').waitFor();
    expect(await everything(person.page)).not.toContain('Invoices of A');
    await person.page.goto(`${stack.baseUrl}/runs/${runOfA}`);
    await person.page.getByText('No such run.').waitFor();
    const html = await everything(person.page);
    expect(html).not.toContain('"Ann"');
    expect(html).not.toContain(a.robot.robotId);
  });
});

describe('the admin', () => {
  const person = signedInPage(() => stack.config.adminToken);

  const switcher = () => person.page.getByLabel('Workspace', { exact: true });

  it('switches workspace: B shows B’s robot only, A shows A’s', async () => {
    await person.page.getByText('No robot yet: create an app (below), then a robot on it.').waitFor();
    expect(await person.page.getByLabel('Signed in').textContent()).toBe('admin (admin) in Default');
    await switcher().locator('option', { hasText: 'Workspace B' }).waitFor({ state: 'attached' });
    expect(await switcher().locator('option').allTextContents()).toEqual(['Default', 'Workspace A', 'Workspace B']);

    await switcher().selectOption({ label: 'Workspace B' });
    await robotLink(person.page, 'Payroll of B').waitFor();
    expect(await person.page.getByLabel('Signed in').textContent()).toBe('admin (admin) in Workspace B');
    expect(await rows(person.page, 'Robots').count()).toBe(1);
    expect(await everything(person.page)).not.toContain('Invoices of A');
    await shot(person.page, 'robots-admin-workspace-b');

    await switcher().selectOption({ label: 'Workspace A' });
    await robotLink(person.page, 'Invoices of A').waitFor();
    expect(await rows(person.page, 'Robots').count()).toBe(2);
    expect(await everything(person.page)).not.toContain('Payroll of B');
  });

  it("switching from a robot's person.page goes to the robots of the workspace chosen", async () => {
    await robotLink(person.page, 'Invoices of A').click();
    await person.page.getByRole('heading', { name: 'Invoices of A' }).waitFor();
    await switcher().selectOption({ label: 'Workspace B' });
    await robotLink(person.page, 'Payroll of B').waitFor();
    expect(person.page.url()).toBe(stack.baseUrl + '/');
    expect(await everything(person.page)).not.toContain('Invoices of A');
  });

  it("manages any workspace's keys: B's are listed in B", async () => {
    await person.page.getByRole('link', { name: 'Keys' }).click();
    await person.page.getByRole('heading', { name: 'Keys of Workspace B' }).waitFor();
    await rows(person.page, 'Keys').filter({ hasText: 'Owner of Workspace B' }).waitFor();
    expect(await rows(person.page, 'Keys').count()).toBe(1);
  });

  it('makes a workspace, which is then the one shown, and pages its robots', async () => {
    await person.page.getByRole('button', { name: 'New workspace' }).click();
    await person.page.getByRole('form', { name: 'New workspace' }).getByLabel('Workspace name').fill('Workspace C');
    await person.page.getByRole('button', { name: 'Create workspace' }).click();
    await person.page.getByText('No robot yet: create an app (below), then a robot on it.').waitFor();
    expect(await person.page.getByLabel('Signed in').textContent()).toBe('admin (admin) in Workspace C');
    await switcher().locator('option:checked', { hasText: 'Workspace C' }).waitFor({ state: 'attached' });

    // 21 robots in C, made by the admin acting in C: two pages.
    const { workspaces } = await stack.client.call('listWorkspaces');
    const inC = { 'x-workspace-id': workspaces.find((w) => w.name === 'Workspace C')!.id };
    const app = await stack.api('POST', '/api/apps', { name: 'C app', supportsInboundTrigger: true }, inC);
    expect(app.status).toBe(201);
    const names = Array.from({ length: 21 }, (_, i) => `C robot ${String(i + 1).padStart(2, '0')}`);
    for (const name of names) {
      const steps = [{ name: 's', type: 'compose', template: {} }];
      const made = await stack.api('POST', '/api/robots', { name, trigger: { appId: app.body.id }, steps }, inC);
      expect(made.status).toBe(201);
    }
    // The tab's session keeps the workspace chosen across a reload.
    await person.page.reload();
    const linkNames = () => person.page.getByRole('table', { name: 'Robots' }).getByRole('link').allTextContents();
    const first = await waitFor(linkNames, (n) => n.length === 20);
    // Previous and Next (test/dashboard-lists.test.ts pages 10,000 robots both ways).
    await person.page.getByRole('button', { name: 'Next' }).click();
    const second = await waitFor(linkNames, (n) => n.length === 1);
    expect([...first, ...second].sort()).toEqual(names);
    expect(await person.page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await person.page.getByRole('button', { name: 'Previous' }).click();
    expect(await waitFor(linkNames, (n) => n.length === 20)).toEqual(first);
  });
});
