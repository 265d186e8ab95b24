/**
 * The app form's senders in a real browser (./support/dashboard.ts): the catalog's settings and
 * set-up as the form shows them, the picker found by part of a name, and a handshake's secret
 * pending on the card until it is confirmed.
 */
import type { Page } from 'playwright-core';
import type { Stack } from './support/stack';
import { chooseSender, robotAtWorkOn, screenshot, tableRows, tableRowsBecome, useDashboard } from './support/dashboard';
import { SENDERS } from '../src/domain/senders/catalog';
import { metaChallenge, metaVerification, metaVerifyToken } from './support/senders/meta';
import { notionEvent, notionSignature, notionVerificationToken } from './support/senders/notion';
import { secretFingerprint } from '../src/robots/handshake-secrets';

let stack: Stack;
let page: Page;
useDashboard((opened) => ({ stack, page } = opened), { signedIn: true });

const shot = (name: string) => screenshot(page, name);
const rows = (name: string) => tableRows(page, name);
const rowsBecome = (name: string, count: number) => tableRowsBecome(page, name, count);

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
  // The App Secret is typed unseen; the verify token, chosen and typed into Meta too, is shown (issue 54).
  expect(await settings.getByLabel('App Secret').getAttribute('type')).toBe('password');
  expect(await settings.getByLabel('Verify token (one you choose)').getAttribute('type')).toBe('text');
  expect(await settings.getByLabel('Where to paste the URL').textContent()).toBe(SENDERS.meta.setup);
  expect(await form.getByLabel('Body format').inputValue()).toBe('json');

  await settings.getByLabel('App Secret').fill('too-short-app-secret');
  await settings.getByLabel('Verify token (one you choose)').fill(metaVerifyToken);
  await form.getByRole('button', { name: 'Create app' }).click();
  const refusal = form.getByRole('alert');
  await refusal.waitFor();
  expect(await refusal.textContent()).toMatch(/^at least 32 characters/);
  // Next to its field: the alert right after the App Secret's label, and only there.
  expect(await settings.locator('label:has-text("App Secret") + [role="alert"]').count()).toBe(1);
  await shot('new-app-sender');

  await settings.getByLabel('App Secret').fill('0123456789abcdef0123456789abcdef');
  await form.getByRole('button', { name: 'Create app' }).click();
  await page.getByRole('option', { name: 'WhatsApp orders (json)' }).waitFor({ state: 'attached' });
  expect(await settings.count()).toBe(0);

  const { card, webhookUrl } = await robotAtWorkOn(page, 'Answer WhatsApp', 'WhatsApp orders (json)');
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

  const { card, robotId, webhookUrl } = await robotAtWorkOn(page, 'File Notion pages', 'Notion pages (json)');
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
