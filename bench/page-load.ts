/**
 * The dashboard's robot page as a person first opens it: in Debian's chromium (CHROMIUM_BIN, found
 * by scripts/browser.sh), each load in a fresh browser context (nothing cached, the admin token
 * already in the session), timed from navigation until the first runs of its history are shown.
 * Without CHROMIUM_BIN the measurement is left out.
 */
import { chromium } from 'playwright-core';
import { percentiles, type Percentiles } from './load';

export interface PageLoad {
  baseUrl: string;
  adminToken: string;
}

export async function robotPageLoads(at: PageLoad, robotId: string, samples: number): Promise<Percentiles | null> {
  const executablePath = process.env.CHROMIUM_BIN;
  if (!executablePath) return null;
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  try {
    const times: number[] = [];
    for (let i = 0; i < samples + 2; i++) {
      const context = await browser.newContext();
      await context.addInitScript(`sessionStorage.setItem('admin-token', ${JSON.stringify(at.adminToken)})`);
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(`${at.baseUrl}/robots/${robotId}`, { waitUntil: 'commit' });
      await page.locator('table[aria-label="Run history"] tbody tr').first().waitFor();
      if (i >= 2) times.push(performance.now() - started); // two unmeasured loads first
      await context.close();
    }
    return percentiles(times);
  } finally {
    await browser.close();
  }
}
