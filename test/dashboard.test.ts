/**
 * The dashboard in a real browser: Debian's chromium (scripts/browser.sh finds or installs it)
 * driven by playwright-core, against the real service. Controls are found by their accessible
 * names, as a screen reader would. A screenshot of each page goes to .data/screenshots/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';
import { SENDERS } from '../src/domain/senders/catalog';
import { metaChallenge, metaVerification, metaVerifyToken } from './support/senders/meta';
import { notionEvent, notionSignature, notionVerificationToken } from './support/senders/notion';
import { secretFingerprint } from '../src/robots/handshake-secrets';

const SCREENSHOTS = path.resolve(__dirname, '..', '.data', 'screenshots');

let stack: Stack;
let browser: Browser;
let page: Page;
beforeAll(async () => {
  const executablePath = process.env.CHROMIUM_BIN;
  if (!executablePath) throw new Error('CHROMIUM_BIN is not set: run the tests with `npm test` (scripts/browser.sh)');
  stack = await startStack();
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.baseUrl });
  page = await context.newPage();
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const shot = (name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
/** The rows of a table named `name`, header row left out. */
const rows = (name: string) => page.getByRole('table', { name }).locator('tbody tr');
/** Creates a robot with the example steps on the app shown as `trigger`, from the robots page, and puts it to work. */
async function robotAtWorkOn(name: string, trigger: string) {
  await page.getByLabel('Robot name').fill(name);
  await page.getByLabel('Trigger').selectOption({ label: trigger });
  await page.getByRole('button', { name: 'Create robot' }).click();
  await page.getByRole('heading', { name }).waitFor();
  await page.getByRole('button', { name: 'Put to work' }).click();
  const card = page.getByRole('region', { name: 'Trigger step' });
  await card.getByLabel('Webhook URL').waitFor();
  const robotId = page.url().split('/').pop()!;
  return { card, robotId, webhookUrl: (await card.getByLabel('Webhook URL').textContent())! };
}
/** Chooses a sender in the app form's picker as a person would: types its name, clicks it. */
async function chooseSender(form: Locator, label: string) {
  await form.getByRole('combobox', { name: 'Sender' }).fill(label);
  await form
    .getByRole('listbox', { name: 'Matching senders' })
    .getByRole('option', { name: label, exact: true })
    .click();
}
/** Waits until the page's rows of a table are `count` (the page updates itself; no reload). */
const rowsBecome = (name: string, count: number) =>
  waitFor(
    () => rows(name).count(),
    (n) => n === count,
  );

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
  expect(await error.textContent()).toMatch(/^steps\.0\./);

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
  const context = await browser.newContext();
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

it("offers the sender catalog: exactly Meta's settings and set-up, a refused one next to its field", async () => {
  await page.goto(stack.baseUrl + '/');
  await page.getByRole('button', { name: 'New robot' }).click();
  const form = page.getByRole('form', { name: 'New app' });
  await form.getByLabel('App name').fill('WhatsApp orders');
  await form.getByLabel('Body format').selectOption('csv');
  const settings = form.getByRole('group', { name: 'What to fill in' });
  // A generic sender: a choice is a select, an optional setting says so.
  await chooseSender(form, 'Any HMAC header');
  expect(await settings.getByLabel('Algorithm').evaluate((el) => el.tagName)).toBe('SELECT');
  await settings.getByLabel('Prefix before the digest (e.g. sha256=) (optional)').waitFor();
  // A default is filled in.
  await chooseSender(form, 'Okta event hooks');
  expect(await settings.getByLabel('Authentication field').inputValue()).toBe('Authorization');

  await chooseSender(form, 'Meta (WhatsApp, Messenger, Instagram)');
  expect(await settings.locator('label').allTextContents()).toEqual(['App Secret', 'Verify token (one you choose)']);
  expect(await settings.locator('input, select').count()).toBe(2);
  for (const secret of ['App Secret', 'Verify token (one you choose)'])
    expect(await settings.getByLabel(secret).getAttribute('type')).toBe('password');
  expect(await settings.getByLabel('Where to paste the URL').textContent()).toBe(SENDERS.meta.setup);
  expect(await form.getByLabel('Body format').inputValue()).toBe('json');

  await settings.getByLabel('App Secret').fill('too-short-app-secret');
  await settings.getByLabel('Verify token (one you choose)').fill(metaVerifyToken);
  await form.getByRole('button', { name: 'Create app' }).click();
  const refusal = form.getByRole('alert');
  await refusal.waitFor();
  expect(await refusal.textContent()).toMatch(/^verification\.secret: .*32 characters/);
  // Next to its field: the alert right after the App Secret's label, and only there.
  expect(await settings.locator('label:has-text("App Secret") + [role="alert"]').count()).toBe(1);
  await shot('new-app-sender');

  await settings.getByLabel('App Secret').fill('0123456789abcdef0123456789abcdef');
  await form.getByRole('button', { name: 'Create app' }).click();
  await page.getByRole('option', { name: 'WhatsApp orders (json)' }).waitFor({ state: 'attached' });
  expect(await settings.count()).toBe(0);

  const { card, webhookUrl } = await robotAtWorkOn('Answer WhatsApp', 'WhatsApp orders (json)');
  await card.getByText('Sender: Meta (WhatsApp, Messenger, Instagram)').waitFor();
  expect(await card.getByLabel('Where to paste the URL').textContent()).toBe(SENDERS.meta.setup);
  expect(await card.getByLabel('How it checks the URL').textContent()).toContain('hub.verify_token');
  // The Verify token typed is the one Meta's check of the URL is answered by.
  const check = metaVerification(metaVerifyToken);
  expect(await stack.send('GET', webhookUrl + check.query)).toMatchObject({ status: 200, text: metaChallenge });
  await shot('robot-meta');
});

it('finds a sender by part of its name under its group, chosen with the keyboard, with its set-up', async () => {
  await page.goto(stack.baseUrl + '/');
  await page.getByRole('button', { name: 'New robot' }).click();
  const form = page.getByRole('form', { name: 'New app' });
  await form.getByLabel('App name').fill('Zoom meetings');
  const box = form.getByRole('combobox', { name: 'Sender' });
  const list = form.getByRole('listbox', { name: 'Matching senders' });
  const under = (group: string, label: string) =>
    list.getByRole('group', { name: group }).getByRole('option', { name: label, exact: true });
  expect(await box.inputValue()).toBe('None (unsigned)');
  // Examples of who sends that way, and a scheme's id, find a sender too.
  await box.fill('convoy');
  await under('Generic (any sender)', 'A fixed header').waitFor();
  await box.fill('MICROSOFT-graph');
  await under('Productivity', 'Microsoft Graph').waitFor();

  await box.fill('');
  await box.pressSequentially('ZoO');
  await list.getByRole('group', { name: 'Productivity' }).getByText('Productivity', { exact: true }).waitFor();
  const zoom = under('Productivity', 'Zoom');
  await zoom.waitFor();
  expect(await list.getByRole('option', { name: 'GitHub', exact: true }).count()).toBe(0);
  await shot('new-app-sender-search');
  await box.press('ArrowDown');
  expect(await zoom.getAttribute('aria-selected')).toBe('true');
  expect(await box.getAttribute('aria-activedescendant')).toBe(await zoom.getAttribute('id'));
  await box.press('Enter');
  await list.waitFor({ state: 'detached' });
  expect(await box.inputValue()).toBe('Zoom');

  const settings = form.getByRole('group', { name: 'What to fill in' });
  expect(await settings.getByLabel('Where to paste the URL').textContent()).toBe(SENDERS.zoom.setup);
  const { request, answer } = SENDERS.zoom.handshake!;
  const handshake = settings.getByLabel('How it checks the URL');
  const words = `It checks the URL first: ${request}. Answered: ${answer}.`;
  expect(await handshake.textContent()).toBe(words.replaceAll('`', ''));
  expect(await handshake.locator('code').first().textContent()).toBe('endpoint.url_validation');
  await settings.getByLabel('Secret Token').fill('zoom-secret-token-0123456789');
  await form.getByRole('button', { name: 'Create app' }).click();
  await page.getByRole('option', { name: 'Zoom meetings (json)' }).waitFor({ state: 'attached' });
  // Enter chose the sender and sent no form: one app of that name, Zoom's.
  const { apps } = (await stack.api('GET', '/api/apps')).body;
  const made = apps.filter((a: { name: string }) => a.name === 'Zoom meetings');
  expect(made).toMatchObject([{ verification: { scheme: 'zoom' } }]);
  expect(await box.inputValue()).toBe('None (unsigned)');
});

it("lists Notion's handshake as pending on the card; Confirm shows its token once to paste back", async () => {
  await page.goto(stack.baseUrl + '/');
  await page.getByRole('button', { name: 'New robot' }).click();
  const form = page.getByRole('form', { name: 'New app' });
  await form.getByLabel('App name').fill('Notion pages');
  await chooseSender(form, 'Notion');
  const settings = form.getByRole('group', { name: 'What to fill in' });
  await settings.getByText(/^Nothing to fill in here: Notion gives its secret in its first request/).waitFor();
  expect(await settings.locator('input, select').count()).toBe(0);
  expect(await settings.getByLabel('Where to paste the URL').textContent()).toBe(SENDERS.notion.setup);
  await form.getByRole('button', { name: 'Create app' }).click();
  await page.getByRole('option', { name: 'Notion pages (json)' }).waitFor({ state: 'attached' });

  const { card, robotId, webhookUrl } = await robotAtWorkOn('File Notion pages', 'Notion pages (json)');
  await card.getByText('Sender: Notion').waitFor();
  const secrets = card.getByRole('region', { name: 'Secrets senders gave in handshakes' });
  await secrets.getByText("Waiting for Notion's first request to the URL").waitFor();
  await secrets.getByText('An event signed with a pending secret is refused until an editor confirms').waitFor();

  // Notion's first request, as the subscription is made: its token is kept pending, never shown.
  const handshake = JSON.stringify({ verification_token: notionVerificationToken });
  expect((await stack.send('POST', webhookUrl, handshake, { 'Content-Type': 'application/json' })).status).toBe(200);
  const fingerprint = secretFingerprint(notionVerificationToken);
  const pending = rows('Pending secrets').filter({ hasText: fingerprint });
  await pending.waitFor();
  expect(await pending.textContent()).toContain('127.0.0.1');
  expect(await rows('Pending secrets').count()).toBe(1);
  expect(await secrets.getByText("Waiting for Notion's first request").count()).toBe(0);
  expect(await page.content()).not.toContain(notionVerificationToken);
  // Signed with the pending token, an event is refused.
  const event = notionEvent();
  const signed = {
    'Content-Type': 'application/json',
    'X-Notion-Signature': notionSignature(notionVerificationToken, event),
  };
  expect((await stack.send('POST', webhookUrl, event, signed)).status).toBe(400);
  await shot('robot-notion-pending');

  // Confirmed: the token is shown this once, to paste into Notion's Verify.
  await pending.getByRole('button', { name: 'Confirm' }).click();
  const token = secrets.getByLabel('Notion verification token');
  await token.waitFor();
  expect(await token.textContent()).toBe(notionVerificationToken);
  await secrets.getByText('Shown this once: paste it into Notion\'s "Verify".').waitFor();
  expect(await secrets.getByLabel('Confirmed secret').textContent()).toBe(fingerprint);
  expect(await page.getByRole('table', { name: 'Pending secrets' }).count()).toBe(0);
  await secrets.getByRole('button', { name: 'Copy Notion verification token' }).click();
  await secrets.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(notionVerificationToken);
  await shot('robot-notion');

  // Notion's events are signed with that token: one runs.
  expect((await stack.send('POST', webhookUrl, event, signed)).status).toBe(200);
  await rowsBecome('Run history', 1);
  expect((await stack.runs(robotId)).length).toBe(1);

  // Once: after a reload the card names the confirmed secret, never the token.
  await page.reload();
  await secrets.getByLabel('Confirmed secret').waitFor();
  expect(await secrets.getByLabel('Confirmed secret').textContent()).toBe(fingerprint);
  expect(await secrets.getByLabel('Notion verification token').count()).toBe(0);
  expect(await page.content()).not.toContain(notionVerificationToken);
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
