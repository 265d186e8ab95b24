/**
 * The dashboard in a real browser, for the browser tests (test/dashboard*.test.ts): Debian's
 * chromium (scripts/browser.sh finds or installs it, CHROMIUM_BIN) driven by playwright-core against
 * a stack of its own, and what the tests do on it as a person would.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { startStack, type Stack } from './stack';
import { waitFor } from '../../src/launch/os/wait';

const SCREENSHOTS = path.resolve(__dirname, '..', '..', '.data', 'screenshots');

export interface Dashboard {
  stack: Stack;
  browser: Browser;
  page: Page;
}

/** A stack (with the settings `env`) and a browser page on it, which may read and write the clipboard. */
export async function openDashboard(env: Record<string, string> = {}): Promise<Dashboard> {
  const executablePath = process.env.CHROMIUM_BIN;
  if (!executablePath) throw new Error('CHROMIUM_BIN is not set: run the tests with `npm test` (scripts/browser.sh)');
  const stack = await startStack(env);
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.baseUrl });
  const page = await context.newPage();
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  return { stack, browser, page };
}

export async function closeDashboard(dashboard: Dashboard | undefined): Promise<void> {
  await dashboard?.browser.close();
  await dashboard?.stack.close();
}

/**
 * Opens the dashboard before a test file's tests (signed in with the admin token if `signedIn`, its
 * stack with the settings `env`) and closes it after them; `opened` hears it.
 */
export function useDashboard(
  opened: (dashboard: Dashboard) => void,
  options: { signedIn: boolean; env?: Record<string, string> },
): void {
  let dashboard: Dashboard | undefined;
  beforeAll(async () => {
    dashboard = await openDashboard(options.env);
    if (options.signedIn) await signIn(dashboard.page, dashboard.stack);
    opened(dashboard);
  });
  afterAll(() => closeDashboard(dashboard));
}

/** The page as it is, to .data/screenshots/<name>.png. */
export const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });

/** The rows of a table named `name`, header row left out. */
export const tableRows = (page: Page, name: string) => page.getByRole('table', { name }).locator('tbody tr');

/** Waits until the page's rows of a table are `count` (the page updates itself; no reload). */
export const tableRowsBecome = (page: Page, name: string, count: number) =>
  waitFor(
    () => tableRows(page, name).count(),
    (n) => n === count,
  );

/** Signs in with the admin token. */
export async function signIn(page: Page, stack: Stack): Promise<void> {
  await page.goto(stack.baseUrl + '/');
  await page.getByLabel('Key or admin token').fill(stack.config.adminToken);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Robots' }).waitFor();
}

/** Creates a robot with the example steps on the app shown as `trigger`, from the robots page, and puts it to work. */
export async function robotAtWorkOn(page: Page, name: string, trigger: string) {
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
export async function chooseSender(form: Locator, label: string): Promise<void> {
  await form.getByRole('combobox', { name: 'Sender' }).fill(label);
  await form
    .getByRole('listbox', { name: 'Matching senders' })
    .getByRole('option', { name: label, exact: true })
    .click();
}
