/**
 * The pictures of docs/quickstart.md's dashboard path, taken by walking it in chromium as a newcomer
 * does: sign in with the admin token, make an app and a robot on it (the form's example steps), put
 * it to work, send its URL a delivery, see the run in its history. Each step waits for what the
 * quickstart says the person sees, so a walk that no longer works fails here (test/screenshots.test.ts).
 */
import path from 'node:path';
import type { Browser, Locator } from 'playwright-core';
import type { ScreenshotsAt } from './screenshots';

/** What the quickstart names: its app, its robot and the body it sends. */
export const QUICKSTART = {
  app: 'My first app',
  robot: 'My first robot',
  body: { name: 'Ada' },
} as const;

/** Walks the dashboard path; returns the pictures written (docs/quickstart-*.png) and the robot's URL. */
export async function takeQuickstartShots(
  browser: Browser,
  at: ScreenshotsAt,
): Promise<{ files: string[]; webhookUrl: string }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const files: string[] = [];
  /** The page as it shows, or only the part named. */
  const shot = async (name: string, part?: Locator) => {
    const file = path.join(at.dir, `quickstart-${name}.png`);
    await page.waitForLoadState('networkidle');
    await (part ?? page).screenshot({ path: file });
    files.push(file);
  };
  try {
    // 1. Sign in with the admin token (a password field: the picture shows dots).
    await page.goto(at.baseUrl + '/');
    await page.getByLabel('Key or admin token').fill(at.adminToken);
    await shot('sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Robots' }).waitFor();

    // 2. New robot: an app for its trigger, then the robot with the form's example steps.
    await page.getByRole('button', { name: 'New robot' }).click();
    await page.getByLabel('App name').fill(QUICKSTART.app);
    await page.getByRole('button', { name: 'Create app' }).click();
    const trigger = `${QUICKSTART.app} (json)`;
    // The first such app when the walk runs again on the same service: the robot takes either.
    await page.getByRole('option', { name: trigger }).first().waitFor({ state: 'attached' });
    await page.getByLabel('Robot name').fill(QUICKSTART.robot);
    await page.getByLabel('Trigger').selectOption({ label: trigger });
    await shot('new-robot');
    await page.getByRole('button', { name: 'Create robot' }).click();
    await page.getByRole('heading', { name: QUICKSTART.robot }).waitFor();

    // 3. Put to work: the card shows the URL, Copy URL and a curl example.
    await page.getByRole('button', { name: 'Put to work' }).click();
    const card = page.getByRole('region', { name: 'Trigger step' });
    await card.getByLabel('curl example').waitFor();
    const webhookUrl = (await card.getByLabel('Webhook URL').textContent()) ?? '';
    await shot('card', card);

    // 4. A delivery, as the quickstart's curl sends it; 5. its run in the history (the page follows by itself).
    const sent = await fetch(webhookUrl, { method: 'POST', body: JSON.stringify(QUICKSTART.body) });
    if (sent.status !== 200) throw new Error(`the quickstart's delivery was answered ${sent.status}`);
    const history = page.getByRole('table', { name: 'Run history' });
    await history.getByRole('link', { name: /^succeeded: run of / }).waitFor();
    await shot('history', history.locator('xpath=..'));
    return { files, webhookUrl };
  } finally {
    await context.close();
  }
}
