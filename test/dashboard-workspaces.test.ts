/**
 * The dashboard with workspaces (src/domain/workspaces.ts), in a real browser as people use it:
 * Debian's chromium driven by playwright-core (as test/dashboard.test.ts), against the real
 * service. The admin makes workspaces A and B with keys, and a robot at work in each, through the
 * API; then each person signs in, in a browser context of their own: A's owner sees A's robot, run
 * and URL and nothing of B's, manages A's keys and reads A's audit log; B's owner sees nothing of
 * A's; A's viewer is offered no control that writes; the admin switches between workspaces.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';
import { apiClient, robotAtWork, type ApiClient, type RobotAtWork } from '../src/client/api-client';

const SCREENSHOTS = path.resolve(__dirname, '..', '.data', 'screenshots');

let stack: Stack;
let browser: Browser;

interface Workspace {
  id: string;
  name: string;
  owner: { id: string; key: string; client: ApiClient };
  robot: RobotAtWork;
}
let a: Workspace;
let b: Workspace;
let viewerOfA: string;
/** A's second robot, never put to work (for the search). */
let refundsOfA: string;
let runOfA: string;

async function key(workspaceId: string, name: string, role: 'viewer' | 'editor' | 'owner') {
  const made = await stack.client.json<{ id: string; key: string }>('POST', `/api/workspaces/${workspaceId}/keys`, {
    name,
    role,
  });
  return { ...made, client: apiClient(stack.baseUrl, made.key) };
}

async function workspace(name: string, robotName: string): Promise<Workspace> {
  const { id } = await stack.client.json<{ id: string }>('POST', '/api/workspaces', { name });
  const owner = await key(id, `Owner of ${name}`, 'owner');
  const robot = await robotAtWork(owner.client, {
    template: { hello: '{{trigger.name}}' },
    appName: `Orders of ${name}`,
    robotName,
    stepName: 'greet',
  });
  return { id, name, owner, robot };
}

beforeAll(async () => {
  const executablePath = process.env.CHROMIUM_BIN;
  if (!executablePath) throw new Error('CHROMIUM_BIN is not set: run the tests with `npm test` (scripts/browser.sh)');
  stack = await startStack();
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  fs.mkdirSync(SCREENSHOTS, { recursive: true });

  a = await workspace('Workspace A', 'Invoices of A');
  b = await workspace('Workspace B', 'Payroll of B');
  viewerOfA = (await key(a.id, 'Viewer of A', 'viewer')).key;
  refundsOfA = (
    await a.owner.client.json<{ id: string }>('POST', '/api/robots', {
      name: 'Refunds of A',
      trigger: { appId: a.robot.appId },
      steps: [{ name: 'greet', type: 'compose', template: { hello: 'refund' } }],
    })
  ).id;
  expect((await stack.send('POST', a.robot.webhookUrl, '{"name":"Ann"}')).status).toBe(200);
  const runsOfA = `/api/robots/${a.robot.robotId}/runs`;
  const { runs } = await waitFor(
    () => a.owner.client.json<{ runs: { id: string; status: string }[] }>('GET', runsOfA),
    (page) => page.runs.length === 1 && page.runs[0].status === 'succeeded',
  );
  runOfA = runs[0].id;
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** A person's own browser (a context: its own session storage), signed in with `credential`. */
async function signedIn(credential: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.baseUrl });
  const page = await context.newPage();
  await page.goto(stack.baseUrl + '/');
  await page.getByLabel('Key or admin token').fill(credential);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Robots' }).waitFor();
  return page;
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
/** The rows of a table named `name`, header row left out. */
const rows = (page: Page, name: string) => page.getByRole('table', { name }).locator('tbody tr');
/** A robot's link in the robots list. */
const robotLink = (page: Page, name: string) =>
  page.getByRole('table', { name: 'Robots' }).getByRole('link', { name, exact: true });
/** The whole page as text and markup: what a person could see or find in it. */
const everything = (page: Page) => page.content();

/** The robot page's write buttons (a viewer sees none; `Change` is the dedup card's). */
const ROBOT_WRITES = [
  'Put to work',
  'Pause',
  'Resume',
  'Stop',
  'Rotate token',
  'Send test delivery',
  'Rename',
  'Edit steps',
  'Edit rules',
  'Change',
];

/** A person's page, signed in with `credential` for the tests of the describe block that calls it. */
function signedInPage(credential: () => string): { page: Page } {
  const person = {} as { page: Page };
  beforeAll(async () => {
    person.page = await signedIn(credential());
  });
  afterAll(() => person.page.context().close());
  return person;
}

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

  it("opens A's robot: its URL, its run, and the controls an owner has", async () => {
    await robotLink(person.page, 'Invoices of A').click();
    await person.page.getByRole('heading', { name: 'Invoices of A' }).waitFor();
    const card = person.page.getByRole('region', { name: 'Trigger step' });
    expect(await card.getByLabel('Webhook URL').textContent()).toBe(a.robot.webhookUrl);
    await card.getByRole('button', { name: 'Copy URL' }).waitFor();
    await rows(person.page, 'Run history').getByRole('link', { name: 'succeeded' }).waitFor();
    await rows(person.page, 'Deliveries')
      .getByRole('button', { name: /^Replay delivery/ })
      .waitFor();
    await card.getByText(/^A repeat is told apart/).waitFor();
    // A robot at work offers neither.
    const writes = ROBOT_WRITES.filter((name) => name !== 'Put to work' && name !== 'Resume');
    for (const name of writes) expect(await person.page.getByRole('button', { name, exact: true }).count()).toBe(1);
  });

  it("finds B's robot and run not found, with nothing of theirs shown", async () => {
    await person.page.goto(`${stack.baseUrl}/robots/${b.robot.robotId}`);
    await person.page.getByText('No such robot.').waitFor();
    const html = await everything(person.page);
    expect(html).not.toContain('Payroll of B');
    expect(html).not.toContain(b.robot.webhookUrl);
    expect(await person.page.getByLabel('Webhook URL').count()).toBe(0);
  });

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

describe("A's viewer", () => {
  const person = signedInPage(() => viewerOfA);

  it("sees A's robots, but neither New robot, nor the forms that create, nor Keys", async () => {
    await robotLink(person.page, 'Invoices of A').waitFor();
    await person.page.getByRole('link', { name: 'Audit log' }).waitFor();
    expect(await person.page.getByRole('button', { name: 'New robot' }).count()).toBe(0);
    for (const form of ['New robot', 'New app', 'New payment connection'])
      expect(await person.page.getByRole('form', { name: form }).count()).toBe(0);
    expect(await person.page.getByRole('link', { name: 'Keys' }).count()).toBe(0);
    expect(await person.page.getByLabel('Signed in').textContent()).toContain('(viewer) in Workspace A');
  });

  it("reads A's robot, its masked URL and run, with no button that would change anything", async () => {
    await robotLink(person.page, 'Invoices of A').click();
    await person.page.getByRole('heading', { name: 'Invoices of A' }).waitFor();
    // The URL's token is the senders' credential: a viewer sees its last 4 characters only, and cannot copy it.
    const token = a.robot.webhookUrl.split('/').pop()!;
    const masked = a.robot.webhookUrl.replace(token, `…${token.slice(-4)}`);
    expect(await person.page.getByLabel('Webhook URL').textContent()).toBe(masked);
    await person.page.getByText('Its token is masked: editors, owners and the admin see the URL.').waitFor();
    expect(await person.page.getByRole('button', { name: 'Copy URL' }).count()).toBe(0);
    expect(await person.page.getByLabel('curl example').count()).toBe(0);
    await rows(person.page, 'Run history').getByRole('link', { name: 'succeeded' }).waitFor();
    await rows(person.page, 'Deliveries').filter({ hasText: 'processed' }).waitFor();
    await person.page.getByRole('heading', { name: 'Trigger rules' }).waitFor();
    await person.page
      .getByRole('region', { name: 'Trigger step' })
      .getByText(/^A repeat is told apart/)
      .waitFor();
    for (const name of ROBOT_WRITES)
      expect(await person.page.getByRole('button', { name, exact: true }).count()).toBe(0);
    expect(await person.page.getByRole('button', { name: /^Replay/ }).count()).toBe(0);
    expect(await everything(person.page)).not.toContain(token);
    await shot(person.page, 'robot-viewer');
  });

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
    const { workspaces } = await stack.client.json<{ workspaces: { id: string; name: string }[] }>(
      'GET',
      '/api/workspaces',
    );
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

it('serves the pages of keys and of the audit log, so that a reload or a link opens them', async () => {
  for (const p of ['/keys', '/audit']) {
    const res = await fetch(stack.baseUrl + p);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
  }
});
