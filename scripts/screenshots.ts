/**
 * `npm run screenshots`: the dashboard's pictures in docs/dashboard.md, taken from a running service
 * (`npm start`; BASE_URL, default http://localhost:3000, and the admin token in ADMIN_TOKEN or in
 * DATA_DIR/admin-token) so that they show the dashboard as it is. It makes what they show through the
 * public API, as a person would: a GitHub app and its robot at work, a form-encoded push and a refused
 * one; then, in Debian's chromium (CHROMIUM_BIN, scripts/browser.sh), it saves the robots page, the
 * apps page, the robot's page and the push in the delivery inspector as docs/dashboard-*.png. Before
 * that it walks docs/quickstart.md's dashboard path for its docs/quickstart-*.png (./quickstart-shots.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { sign } from '@octokit/webhooks-methods';
import { chromium } from 'playwright-core';
import { apiClient, robotAtWork } from '../src/client/api-client';
import { waitFor } from '../src/launch/os/wait';
import { takeQuickstartShots } from './quickstart-shots';

export interface ScreenshotsAt {
  baseUrl: string;
  adminToken: string;
  /** Where the pictures go (docs/). */
  dir: string;
}

/** A secret for the example app, made here: the pictures never show it. */
const SECRET = `screenshots-${Date.now()}-github-secret`;

/** Takes the pictures; returns the files written. */
export async function takeScreenshots(at: ScreenshotsAt): Promise<string[]> {
  const executablePath = process.env.CHROMIUM_BIN;
  if (!executablePath) throw new Error('CHROMIUM_BIN is not set: run `npm run screenshots` (scripts/browser.sh)');
  const written: string[] = [];
  // The quickstart first, on a service that may be new: its pictures show what a newcomer sees.
  const first = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  try {
    written.push(...(await takeQuickstartShots(first, at)).files);
  } finally {
    await first.close();
  }
  const api = apiClient(at.baseUrl, at.adminToken);
  const robot = await robotAtWork(api, {
    template: { branch: '{{trigger.ref}}', pusher: '{{trigger.pusher.name}}' },
    verification: { scheme: 'github', secret: SECRET },
    appName: 'GitHub (octo-shop/orders)',
    robotName: 'Deploy on push',
  });
  const push = JSON.stringify({ ref: 'refs/heads/main', pusher: { name: 'ada-l' }, commits: [{ id: '4f3a1c0' }] });
  for (const [key, event] of [
    [SECRET, 'push'],
    ['a-secret-pasted-wrong', 'push'],
  ]) {
    const body = new URLSearchParams({ payload: push }).toString();
    await fetch(robot.webhookUrl, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-github-event': event,
        'x-github-delivery': `${Date.now()}-${key.length}`,
        'x-hub-signature-256': await sign({ secret: key, algorithm: 'sha256' }, body),
      },
    });
  }
  const { deliveries } = await waitFor(
    () =>
      api.json<{ deliveries: Array<{ id: string; outcome: string }> }>(
        'GET',
        `/api/robots/${robot.robotId}/deliveries`,
      ),
    (page) => page.deliveries.some((d) => d.outcome === 'processed'),
  );
  const taken = deliveries.find((d) => d.outcome === 'processed')!;

  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Signed in as web/src/api.ts keeps a session (`credential` in sessionStorage).
    await context.addInitScript(`sessionStorage.setItem('credential', ${JSON.stringify(at.adminToken)})`);
    const page = await context.newPage();
    const shots: Array<[string, string, string]> = [
      ['robots', '/', 'h1, h2'],
      ['apps', '/apps', 'h1, h2'],
      ['robot', `/robots/${robot.robotId}`, 'table'],
      ['inspector', `/deliveries/${taken.id}`, 'pre, table[aria-label="Form fields"]'],
    ];
    for (const [name, where, shown] of shots) {
      await page.goto(at.baseUrl + where);
      await page.locator(shown).first().waitFor();
      await page.waitForLoadState('networkidle');
      const file = path.join(at.dir, `dashboard-${name}.png`);
      await page.screenshot({ path: file, fullPage: false });
      written.push(file);
    }
  } finally {
    await browser.close();
  }
  return written;
}

if (require.main === module) {
  const dataDir = path.resolve(process.env.DATA_DIR ?? '.data');
  const adminToken = process.env.ADMIN_TOKEN ?? fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
  const baseUrl = process.env.BASE_URL ?? 'http://localhost:3000';
  const dir = path.resolve(__dirname, '..', '..', 'docs');
  takeScreenshots({ baseUrl, adminToken, dir }).then(
    (files) => process.stdout.write(files.map((f) => `wrote ${path.relative(process.cwd(), f)}\n`).join('')),
    (err: Error) => {
      process.stderr.write(`screenshots: ${err.message}\n(is the service running? start it with \`npm start\`)\n`);
      process.exit(1);
    },
  );
}
