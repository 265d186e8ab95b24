/**
 * The Apps page in a real browser (./support/dashboard.ts), as a person uses it (issue 54, items 2
 * and 3): apps listed with their robots; an app opened, its secret and body format fixed, and the
 * deliveries it refused replayed into runs; Meta's verify token generated, shown and copied; Stripe
 * chosen in the same sender list making a payment connection with its event types; forms that show
 * their rules before submit and every problem at once in words, keep a draft (never a secret)
 * across a reload, and ask before a page with unsaved changes is left.
 */
import { randomUUID } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import type { Page } from 'playwright-core';
import type { Stack } from './support/stack';
import { chooseSender, robotAtWorkOn, screenshot, tableRows, useDashboard } from './support/dashboard';
import { waitFor } from '../src/launch/os/wait';

let stack: Stack;
let page: Page;
useDashboard((opened) => ({ stack, page } = opened), { signedIn: true });

const shot = (name: string) => screenshot(page, name);
const newApp = () => page.getByRole('form', { name: 'New app' });

/** The Apps page, through the header's navigation. */
async function openApps(): Promise<void> {
  await page.goto(stack.baseUrl + '/');
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Apps' }).click();
  await page.getByRole('heading', { name: 'Apps', exact: true }).waitFor();
}

const GITHUB_SECRET = 'the-right-github-secret-0123456789';
const push = JSON.stringify({ ref: 'refs/heads/main', pusher: { name: 'ada' } });

/** A push as GitHub sends it, signed with `secret`. */
async function githubPush(url: string, secret: string) {
  const headers = {
    'content-type': 'application/json',
    'x-github-event': 'push',
    'x-github-delivery': randomUUID(),
    'x-hub-signature-256': await sign({ secret, algorithm: 'sha256' }, push),
  };
  return stack.send('POST', url, push, headers);
}

it('lists apps with their robots; a fixed secret and body format replay the refused deliveries into runs', async () => {
  await openApps();
  await newApp().getByLabel('App name').fill('Repository pushes');
  await chooseSender(newApp(), 'GitHub');
  // A typo: the secret typed here is not the one GitHub signs with.
  await newApp().getByLabel('Secret', { exact: true }).fill('a-mistyped-github-secret-000000');
  await newApp().getByLabel('Body format').selectOption('text');
  await newApp().getByRole('button', { name: 'Create app' }).click();
  await newApp().getByRole('status').filter({ hasText: 'App “Repository pushes” created.' }).waitFor();

  await page.goto(stack.baseUrl + '/');
  await page.getByRole('button', { name: 'New robot' }).click();
  const { robotId, webhookUrl } = await robotAtWorkOn(page, 'Build on push', 'Repository pushes (text)');
  expect((await githubPush(webhookUrl, GITHUB_SECRET)).status).toBe(400);
  expect((await githubPush(webhookUrl, GITHUB_SECRET)).status).toBe(400);
  expect((await stack.runs(robotId)).length).toBe(0);
  // The apps page counts refusals from the deliveries log once, as it loads: both are in the log first.
  const refused = (ds: Array<{ outcome: string }>) => ds.filter((d) => d.outcome === 'rejected').length;
  await waitFor(
    () => stack.deliveries(robotId),
    (ds) => refused(ds) === 2,
    30_000,
  );

  await openApps();
  const row = tableRows(page, 'Apps').filter({ hasText: 'Repository pushes' });
  await row.waitFor();
  expect(await row.locator('td').allTextContents()).toEqual([
    'Repository pushes',
    'Plain text',
    'GitHub',
    'Build on push',
  ]);
  await row.getByRole('button', { name: 'Repository pushes' }).click();
  const edit = page.getByRole('form', { name: 'Edit app' });
  expect(await edit.getByLabel('App name').inputValue()).toBe('Repository pushes');
  expect(await edit.getByRole('combobox', { name: 'Sender' }).inputValue()).toBe('GitHub');
  // The secret is never shown: left empty it is kept.
  expect(await edit.getByLabel('Secret', { exact: true }).inputValue()).toBe('');
  await edit.getByText("left empty: the app's own is kept").waitFor();
  await edit.getByLabel('Secret', { exact: true }).fill(GITHUB_SECRET);
  await edit.getByLabel('Body format').selectOption('json');
  await edit.getByRole('button', { name: 'Save app' }).click();
  await edit.getByRole('status').filter({ hasText: 'App “Repository pushes” saved.' }).waitFor();
  expect(await row.locator('td').nth(1).textContent()).toBe('JSON');

  const replay = page.getByRole('button', { name: /^Replay the 2 deliveries refused since / });
  await replay.waitFor();
  await shot('apps');
  await replay.click();
  await page.getByRole('status').filter({ hasText: 'Replayed 2 deliveries' }).waitFor();
  const runs = await waitFor(
    () => stack.runs(robotId),
    (r) => r.length === 2 && r.every((run) => run.status === 'succeeded'),
  );
  expect(runs.map((r) => r.trigger)).toEqual([JSON.parse(push), JSON.parse(push)]);
  // Sent now, signed with the fixed secret, a push is taken at once.
  expect((await githubPush(webhookUrl, GITHUB_SECRET)).status).toBe(200);
});

it("generates Meta's verify token, shows it as text with its rule first, and copies it", async () => {
  await openApps();
  await newApp().getByLabel('App name').fill('WhatsApp support');
  await chooseSender(newApp(), 'Meta (WhatsApp, Messenger, Instagram)');
  const settings = newApp().getByRole('group', { name: 'What to fill in' });
  const token = settings.getByLabel('Verify token (one you choose)');
  expect(await token.getAttribute('type')).toBe('text');
  // Its rule is there before any submit.
  await settings.getByText('at least 16 characters', { exact: true }).waitFor();
  await settings.getByText('at least 32 characters', { exact: true }).waitFor();
  await settings.getByRole('button', { name: 'Generate Verify token' }).click();
  const generated = await token.inputValue();
  expect(generated).toMatch(/^[0-9a-f]{64}$/);
  await settings.getByRole('button', { name: 'Copy Verify token' }).click();
  await settings.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(generated);
  await settings.getByLabel('App Secret').fill('0123456789abcdef0123456789abcdef');
  await newApp().getByRole('button', { name: 'Create app' }).click();
  await newApp().getByRole('status').filter({ hasText: 'App “WhatsApp support” created.' }).waitFor();
  // Reset to the defaults: no name, no sender, JSON.
  expect(await newApp().getByLabel('App name').inputValue()).toBe('');
  expect(await newApp().getByRole('combobox', { name: 'Sender' }).inputValue()).toBe('None (unsigned)');
  expect(await newApp().getByLabel('Body format').inputValue()).toBe('json');
  await tableRows(page, 'Apps').filter({ hasText: 'WhatsApp support' }).waitFor();
});

it('offers Stripe in the sender list: its set-up, event types searched or typed, a payment connection made', async () => {
  await openApps();
  await newApp().getByLabel('App name').fill('Shop payments');
  const box = newApp().getByRole('combobox', { name: 'Sender' });
  await box.fill('stri');
  const list = newApp().getByRole('listbox', { name: 'Matching senders' });
  await list.getByRole('group', { name: 'Payments' }).getByRole('option', { name: 'Stripe', exact: true }).click();
  const stripe = newApp().getByRole('group', { name: 'What to fill in' });
  expect(await stripe.getByRole('list', { name: 'Set up Stripe' }).textContent()).toContain('whsec_');
  const events = stripe.getByRole('group', { name: 'Event types' });
  await events.getByLabel('Search event types, or type another').fill('invoice.pa');
  await events.getByLabel('invoice.paid').check();
  expect(await events.getByRole('checkbox').count()).toBe(3);
  await events.getByLabel('Search event types, or type another').fill('customer.tax_id.created');
  await events.getByRole('button', { name: 'Add customer.tax_id.created' }).click();
  expect(await events.getByLabel('Chosen event types').textContent()).toBe(
    'Chosen: invoice.paid, customer.tax_id.created.',
  );
  await stripe.getByLabel('Signing secret (optional)').fill('whsec_0123456789abcdefABCDEF');
  await newApp().getByRole('button', { name: 'Create connection' }).click();
  await newApp().getByRole('status').filter({ hasText: 'Payment connection “Shop payments” created.' }).waitFor();
  const row = tableRows(page, 'Payment connections').filter({ hasText: 'Shop payments' });
  // The list is read again after the status: its row comes when that read is answered.
  await row.waitFor();
  expect(await row.locator('td').allTextContents()).toEqual([
    'Stripe: Shop payments',
    'set (never shown)',
    'invoice.paid, customer.tax_id.created',
    'none',
  ]);
  const { connections } = (await stack.api('GET', '/api/connections')).body;
  expect(connections).toMatchObject([
    { name: 'Shop payments', hasSigningSecret: true, events: ['invoice.paid', 'customer.tax_id.created'] },
  ]);

  // Opened: its secret replaced (never shown), an event type dropped.
  await row.getByRole('button', { name: 'Stripe: Shop payments' }).click();
  const edit = page.getByRole('form', { name: 'Edit payment connection' });
  expect(await edit.getByLabel('New signing secret').inputValue()).toBe('');
  await edit.getByText('left empty: the one set is kept').waitFor();
  await edit.getByLabel('New signing secret').fill('whsec_another0123456789abcdef');
  await edit.getByLabel('customer.tax_id.created').uncheck();
  await edit.getByRole('button', { name: 'Save connection' }).click();
  await edit.getByRole('status').filter({ hasText: 'Payment connection “Shop payments” saved.' }).waitFor();
  expect(await row.locator('td').nth(2).textContent()).toBe('invoice.paid');

  // A robot on it takes those event types; its card says how to send a signed test.
  await page.goto(stack.baseUrl + '/');
  await page.getByRole('button', { name: 'New robot' }).click();
  const { card, robotId } = await robotAtWorkOn(page, 'Fulfil paid orders', 'Payment provider: Shop payments');
  const robot = (await stack.api('GET', `/api/robots/${robotId}`)).body;
  expect(robot.trigger.events).toEqual(['invoice.paid']);
  expect(await card.getByLabel("Stripe's signed test").textContent()).toContain('stripe trigger invoice.paid');
});

it('shows each rule before submit and every problem at once, in words next to its field', async () => {
  await openApps();
  await chooseSender(newApp(), 'GitHub');
  const settings = newApp().getByRole('group', { name: 'What to fill in' });
  await newApp().getByText('required, up to 200 characters').waitFor();
  await settings.getByText('at least 16 characters', { exact: true }).waitFor();
  await settings.getByLabel('Secret', { exact: true }).fill('short');
  await newApp().getByRole('button', { name: 'Create app' }).click();
  const alerts = newApp().getByRole('alert');
  await newApp().getByRole('status').filter({ hasText: '2 problems: see them next to their fields.' }).waitFor();
  expect(await alerts.allTextContents()).toEqual(['required: it is empty', 'at least 16 characters: this is 5']);
  expect(await newApp().locator('label:has-text("App name") + [role="alert"]').count()).toBe(1);
  expect(await settings.locator('label:has-text("Secret") + [role="alert"]').count()).toBe(1);
  await shot('new-app-problems');
});

it('keeps a draft across a reload, never its secret, and asks before leaving unsaved changes', async () => {
  // The last test left its form half-filled: its draft is forgotten.
  await page.evaluate(
    `Object.keys(sessionStorage).forEach((k) => k.startsWith('draft:') && sessionStorage.removeItem(k))`,
  );
  await page.goto(stack.baseUrl + '/apps');
  await page.getByRole('heading', { name: 'Apps', exact: true }).waitFor();
  await newApp().getByLabel('App name').fill('Half-filled');
  await chooseSender(newApp(), 'GitHub');
  await newApp().getByLabel('Secret', { exact: true }).fill('a-secret-not-for-drafts-0123');
  await newApp().getByLabel('Body format').selectOption('xml');

  // A link inside the dashboard asks first: staying keeps the form.
  const asked: string[] = [];
  page.once('dialog', (dialog) => {
    asked.push(dialog.type());
    void dialog.dismiss();
  });
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Robots' }).click();
  await waitFor(
    () => Promise.resolve(asked.length),
    (n) => n === 1,
  );
  expect(asked).toEqual(['confirm']);
  expect(new URL(page.url()).pathname).toBe('/apps');

  // A reload asks too (the browser's prompt), and the draft is back after it, less the secret.
  page.once('dialog', (dialog) => {
    asked.push(dialog.type());
    void dialog.accept();
  });
  await page.reload();
  expect(asked).toEqual(['confirm', 'beforeunload']);
  await newApp().getByLabel('App name').waitFor();
  expect(await newApp().getByLabel('App name').inputValue()).toBe('Half-filled');
  expect(await newApp().getByRole('combobox', { name: 'Sender' }).inputValue()).toBe('GitHub');
  expect(await newApp().getByLabel('Body format').inputValue()).toBe('xml');
  expect(await newApp().getByLabel('Secret', { exact: true }).inputValue()).toBe('');
  expect(await page.evaluate('JSON.stringify(sessionStorage)')).not.toContain('a-secret-not-for-drafts');
});
