/**
 * The dashboard in a real browser: Debian's chromium (scripts/browser.sh finds or installs it)
 * driven by playwright-core, against the real service. Controls are found by their accessible
 * names, as a screen reader would. A screenshot of each page goes to .data/screenshots/. The app
 * form's senders: ./dashboard-senders.test.ts.
 */
import type { Page } from 'playwright-core';
import type { Stack } from './support/stack';
import { screenshot, tableRows, tableRowsBecome, useDashboard, type Dashboard } from './support/dashboard';
import { waitFor } from '../src/launch/os/wait';

let stack: Stack;
let page: Page;
let dashboard: Dashboard;
useDashboard((opened) => ({ stack, page } = dashboard = opened), { signedIn: false });

const shot = (name: string) => screenshot(page, name);
const rows = (name: string) => tableRows(page, name);
const rowsBecome = (name: string, count: number) => tableRowsBecome(page, name, count);

it('signs in with the admin token only, and refuses a wrong one', async () => {
  await page.goto(stack.baseUrl + '/');
  await page.getByLabel('Key or admin token').fill('not-the-token');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').filter({ hasText: 'That key or admin token is not right' }).waitFor();
  await shot('sign-in');

  await page.getByLabel('Key or admin token').fill(stack.config.adminToken);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Robots' }).waitFor();
  expect(page.url()).toBe(stack.baseUrl + '/');
});

it('creates an app and a robot, showing the API validation error next to the steps', async () => {
  await page.getByRole('button', { name: 'New robot' }).click();
  await page.getByLabel('App name').fill('Shop export');
  await page.getByLabel('Body format').selectOption('csv');
  await page.getByRole('button', { name: 'Create app' }).click();
  await page.getByRole('option', { name: 'Shop export (csv)' }).waitFor({ state: 'attached' });

  await page.getByLabel('Robot name').fill('Import customers');
  await page.getByLabel('Trigger').selectOption({ label: 'Shop export (csv)' });
  await page.getByLabel('Steps (JSON)').fill('[{ "name": "greet", "type": "send-email" }]');
  await page.getByRole('button', { name: 'Create robot' }).click();
  const error = page.getByRole('form', { name: 'New robot' }).getByRole('alert');
  await error.waitFor();
  // In words, at the steps, never the API's path (`steps.0.type`).
  expect(await error.textContent()).toMatch(/^step 1, its “type”: /);

  await page
    .getByLabel('Steps (JSON)')
    .fill('[{ "name": "greet", "type": "compose", "template": { "hello": "{{trigger.name}}" } }]');
  await page.getByRole('button', { name: 'Create robot' }).click();
  await page.getByRole('heading', { name: 'Import customers' }).waitFor();
  expect(page.url()).toMatch(/\/robots\/[0-9a-f-]{36}$/);
});

it('shows no URL before the robot is at work; then the exact URL, which "Copy URL" puts on the clipboard', async () => {
  const card = page.getByRole('region', { name: 'Trigger step' });
  await card.getByText('The webhook URL appears here once the robot is put to work.').waitFor();
  expect(await card.getByLabel('Webhook URL').count()).toBe(0);
  await shot('robot-draft');

  await page.getByRole('button', { name: 'Put to work' }).click();
  const shown = card.getByLabel('Webhook URL');
  await shown.waitFor();
  const robotId = page.url().split('/').pop()!;
  const robot = (await stack.api('GET', `/api/robots/${robotId}`)).body;
  expect(await shown.textContent()).toBe(robot.trigger.card.webhookUrl);
  expect(await card.getByLabel('curl example').textContent()).toContain(robot.trigger.card.webhookUrl);

  await card.getByRole('button', { name: 'Copy URL' }).click();
  await card.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(robot.trigger.card.webhookUrl);
});

it('over plain HTTP, where a browser has no clipboard API, "Copy URL" selects the URL for copying', async () => {
  const robotPath = new URL(page.url()).pathname;
  const context = await dashboard.browser.newContext();
  try {
    await context.addInitScript(
      `sessionStorage.setItem('credential', ${JSON.stringify(stack.config.adminToken)});` +
        "Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });",
    );
    const plain = await context.newPage();
    await plain.goto(stack.baseUrl + robotPath);
    const card = plain.getByRole('region', { name: 'Trigger step' });
    await card.getByRole('button', { name: 'Copy URL' }).click();
    await card.getByRole('status').waitFor();
    expect(await plain.evaluate('window.getSelection().toString()')).toBe(
      await card.getByLabel('Webhook URL').textContent(),
    );
  } finally {
    await context.close();
  }
});

it('shows a 3-row CSV as 3 runs and a failed delivery with its error, without a reload', async () => {
  const robotId = page.url().split('/').pop()!;
  const url = (await stack.api('GET', `/api/robots/${robotId}`)).body.trigger.card.webhookUrl;
  const csv = 'name,email\nAnn,ann@example.com\nBob,bob@example.com\nCy,cy@example.com\n';
  expect((await stack.send('POST', url, csv)).status).toBe(200);
  await rowsBecome('Run history', 3);
  await waitFor(
    () => rows('Run history').getByRole('link', { name: 'succeeded' }).count(),
    (n) => n === 3,
  );

  expect((await stack.send('POST', url, 'name\n"Ann')).status).toBe(200);
  await rowsBecome('Deliveries', 2);
  const failed = rows('Deliveries').filter({ hasText: 'failed' });
  expect(await failed.textContent()).toContain('invalid CSV');
  await page.getByLabel('Outcome').selectOption('failed');
  await rowsBecome('Deliveries', 1);
  await page.getByLabel('Outcome').selectOption('');
  await shot('robot');
});

it('shows a run with its trigger data and step output, then stops the robot', async () => {
  const robotPath = new URL(page.url()).pathname;
  await rows('Run history').first().getByRole('link').click();
  await page.getByRole('heading', { name: 'Run succeeded' }).waitFor();
  expect(JSON.parse((await page.getByLabel('Trigger data').textContent())!)).toMatchObject({ name: 'Cy' });
  expect(await page.getByRole('region', { name: 'Step greet' }).textContent()).toContain('"hello": "Cy"');
  await shot('run');

  await page.getByRole('link', { name: 'Back to the robot' }).click();
  await page.waitForURL(stack.baseUrl + robotPath);
  await page.getByRole('button', { name: 'Stop' }).click();
  // Stop asks first, saying what senders get (test/dashboard-lists.test.ts).
  await page.getByRole('dialog').getByRole('button', { name: 'Stop robot' }).click();
  await page.getByText('Stopped', { exact: true }).waitFor();
  await page.getByText('The webhook URL appears here once the robot is put to work.').waitFor();
});

it("shows the API's refusal of a replay while the robot is stopped", async () => {
  await rows('Deliveries')
    .first()
    .getByRole('button', { name: /^Replay delivery/ })
    .click();
  const refusal = page.getByRole('alert').filter({ hasText: 'the robot is not at work' });
  await refusal.waitFor();
  expect(await page.getByRole('status').filter({ hasText: 'Replayed as delivery' }).count()).toBe(0);
});

it('renames the robot, showing the API validation error next to the name', async () => {
  const robotId = page.url().split('/').pop()!;
  await page.getByRole('button', { name: 'Rename' }).click();
  const form = page.getByRole('form', { name: 'Rename robot' });
  await form.getByLabel('Name').fill('');
  await form.getByRole('button', { name: 'Save name' }).click();
  await form.getByRole('alert').waitFor();
  expect(await form.getByRole('alert').textContent()).toMatch(/^name/);

  await form.getByLabel('Name').fill('Import customers (nightly)');
  await form.getByRole('button', { name: 'Save name' }).click();
  await page.getByRole('heading', { name: 'Import customers (nightly)' }).waitFor();
  expect(await form.count()).toBe(0);
  expect((await stack.api('GET', `/api/robots/${robotId}`)).body.name).toBe('Import customers (nightly)');
});

let pickerRobot: { robotId: string; webhookUrl: string };

it('picks a field a test delivery carried into the steps, warns of one never seen, and runs with it', async () => {
  const robot = await stack.robotAtWork({ template: { to: 'nobody' } });
  pickerRobot = robot;
  const send = (email: string) => stack.send('POST', robot.webhookUrl, JSON.stringify({ customer: { email } }));
  // The first delivery is a test delivery, sent from the page: the JSON sample carries customer.email.
  await page.goto(`${stack.baseUrl}/robots/${robot.robotId}`);
  await page.getByRole('button', { name: 'Send test delivery' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /^Test delivery .* sent/ })
    .waitFor();
  await rows('Deliveries').filter({ hasText: '(test delivery)' }).waitFor();
  const picker = page.getByRole('region', { name: 'Fields seen' });
  const email = picker.getByRole('button', { name: 'customer.email', exact: true });
  await email.waitFor();
  expect(await picker.getByRole('tree', { name: 'Fields seen' }).textContent()).toContain('ann@example.com');

  // With the editor closed, a click copies the placeholder.
  await email.click();
  await picker.getByRole('status').filter({ hasText: 'Copied {{trigger.customer.email}}' }).waitFor();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe('{{trigger.customer.email}}');

  await page.getByRole('button', { name: 'Edit steps' }).click();
  const editor = page.getByLabel('Steps (JSON)');
  const typed = '[{"name":"mail","type":"compose","template":{"to":"{{trigger.customer.emial}}"}}]';
  await editor.fill(typed);
  const unseen = page.getByRole('list', { name: 'Placeholders never seen' });
  await unseen.getByText('{{trigger.customer.emial}}').waitFor();
  expect(await unseen.textContent()).toContain('never seen in the last 1 delivery');

  // The cursor where the wrong placeholder was; a click puts the right one there.
  const at = typed.indexOf('{{');
  await editor.fill(typed.replace('{{trigger.customer.emial}}', ''));
  await editor.evaluate(
    (el, i) => (el as unknown as { setSelectionRange(a: number, b: number): void }).setSelectionRange(i, i),
    at,
  );
  await email.click();
  await picker.getByRole('status').filter({ hasText: 'Inserted {{trigger.customer.email}}' }).waitFor();
  expect(JSON.parse(await editor.inputValue())).toEqual([
    { name: 'mail', type: 'compose', template: { to: '{{trigger.customer.email}}' } },
  ]);
  await unseen.waitFor({ state: 'detached' });
  await shot('fields-picker');
  await page.getByRole('button', { name: 'Save steps' }).click();
  await page.getByRole('heading', { name: 'Steps (version 1)' }).waitFor();

  expect((await send('bob@example.com')).status).toBe(200);
  await rowsBecome('Run history', 2);
  await rows('Run history').first().getByRole('link').click();
  await page.getByRole('heading', { name: 'Run succeeded' }).waitFor();
  expect(await page.getByRole('region', { name: 'Step mail' }).textContent()).toContain('"to": "bob@example.com"');
});

it('edits trigger rules as rows, shows a refusal next to its row, and a stopped delivery as filtered', async () => {
  const robot = pickerRobot;
  await page.goto(`${stack.baseUrl}/robots/${robot.robotId}`);
  const section = page.getByRole('region', { name: 'Trigger rules' });
  await section.getByText('None: every delivery makes a run.').waitFor();
  await section.getByRole('button', { name: 'Edit rules' }).click();
  const form = section.getByRole('form', { name: 'Edit trigger rules' });
  await form.getByRole('button', { name: 'Add condition' }).click();
  const row = form.getByRole('group', { name: 'Condition 1' });
  await row.getByLabel('Field').fill('trigger.customer.email');
  await row.getByLabel('Operator').selectOption('matches');
  await row.getByLabel('Value').fill('(?=lookahead)');
  await form.getByRole('button', { name: 'Save rules' }).click();
  expect(await row.getByRole('alert').textContent()).toMatch(/no lookaround/);

  await row.getByLabel('Value').fill('@example\\.com$');
  await form.getByRole('button', { name: 'Save rules' }).click();
  await section.getByRole('list', { name: 'Conditions' }).waitFor();
  expect(await section.getByRole('list', { name: 'Conditions' }).textContent()).toContain('trigger.customer.email');
  await shot('trigger-rules');

  const send = (email: string) => stack.send('POST', robot.webhookUrl, JSON.stringify({ customer: { email } }));
  expect((await send('eve@elsewhere.org')).status).toBe(200);
  const filtered = rows('Deliveries').filter({ hasText: 'filtered' });
  await filtered.waitFor();
  expect(await filtered.textContent()).toContain('condition 1 not met: trigger.customer.email matches');
});

it("changes the app's dedup on the card, and shows a repeat in the log as a duplicate of the first", async () => {
  const robot = pickerRobot;
  const card = page.getByRole('region', { name: 'Trigger step' });
  await card.getByText(/^A repeat is told apart by the sender's id, else the body/).waitFor();
  await card.getByRole('button', { name: 'Change' }).click();
  const form = card.getByRole('form', { name: 'Duplicates' });
  await form.getByLabel('Duplicates are told apart by').selectOption('header');
  await form.getByRole('button', { name: 'Save' }).click();
  expect(await form.getByRole('alert').textContent()).toBe('dedup.header: name the header');
  await form.getByLabel('Header name').fill('X-Order-Id');
  await form.getByRole('button', { name: 'Save' }).click();
  await card.getByText('A repeat is told apart by the header x-order-id, for 72 hours.').waitFor();

  const send = (email: string) =>
    stack.send('POST', robot.webhookUrl, JSON.stringify({ customer: { email } }), { 'X-Order-Id': 'o-1' });
  expect((await send('first@example.com')).status).toBe(200);
  const first = rows('Deliveries').filter({ hasText: 'processed' }).filter({ hasText: '42 bytes' });
  await first.waitFor();
  expect((await send('second@example.com')).status).toBe(200);
  const duplicate = rows('Deliveries').filter({ hasText: 'duplicate of' });
  await duplicate.waitFor();
  const original = (await stack.deliveries(robot.robotId)).find((d) => d.size === 42 && d.outcome === 'processed');
  expect(await duplicate.textContent()).toContain(`duplicate of ${original.id}`);
});

it('returns to sign-in when the API refuses the token', async () => {
  await page.evaluate("sessionStorage.setItem('credential', 'revoked')");
  await page.goto(stack.baseUrl + '/');
  await page.getByLabel('Key or admin token').waitFor();
});

it('serves its pages but never answers for the API or a webhook', async () => {
  for (const p of ['/', '/robots/x', '/runs/y']) {
    const res = await fetch(stack.baseUrl + p);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
  }
  const api = await fetch(stack.baseUrl + '/api/nothing');
  expect(api.status).toBe(404);
  expect(api.headers.get('content-type')).toContain('application/json');
  expect((await fetch(stack.baseUrl + '/elsewhere')).status).toBe(404);
  expect((await fetch(stack.baseUrl + '/assets/../package.json')).status).toBe(404);
});
