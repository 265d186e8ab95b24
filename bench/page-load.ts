/**
 * The dashboard's robot page as a person first opens it: in Debian's chromium (CHROMIUM_BIN, found
 * by scripts/browser.sh), each load in a fresh browser context (nothing cached, the admin token
 * already in the session), timed from navigation until the first runs of its history are shown.
 * Without CHROMIUM_BIN the measurement is left out.
 */
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { percentiles, type Percentiles } from './load';
import { cpuSecondsBelow } from './processes';

export interface PageLoad {
  baseUrl: string;
  adminToken: string;
}

/** A page's script that signs it in with the admin token, as web/src/api.ts keeps it (`credential`). */
export const signedIn = (at: PageLoad) => `sessionStorage.setItem('credential', ${JSON.stringify(at.adminToken)})`;

/**
 * A dashboard page opened `samples` times (after two untimed), each in a fresh browser context, timed
 * from navigation until `shown` is on it; `after` sees each page once shown. Null without CHROMIUM_BIN.
 */
export async function timedLoads(
  at: PageLoad,
  pagePath: string,
  shown: string,
  samples: number,
  after?: (page: Page) => Promise<void>,
): Promise<number[] | null> {
  const executablePath = process.env.CHROMIUM_BIN;
  if (!executablePath) return null;
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  try {
    const times: number[] = [];
    for (let i = 0; i < samples + 2; i++) {
      const context = await browser.newContext();
      await context.addInitScript(signedIn(at));
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(`${at.baseUrl}${pagePath}`, { waitUntil: 'commit' });
      await page.locator(shown).first().waitFor();
      if (i >= 2) times.push(performance.now() - started); // two unmeasured loads first
      await after?.(page);
      await context.close();
    }
    return times;
  } finally {
    await browser.close();
  }
}

export async function robotPageLoads(at: PageLoad, robotId: string, samples: number): Promise<Percentiles | null> {
  const times = await timedLoads(at, `/robots/${robotId}`, 'table[aria-label="Run history"] tbody tr', samples);
  return times && percentiles(times);
}

/**
 * The dashboard's robot page left open, as a person watching an import leaves it: it follows new
 * runs and deliveries by itself. Returns a stop function that closes it and says how many API
 * requests it made, their latency, and the CPU seconds chromium used meanwhile (a person's browser,
 * on the same 2 cores as the service here). Null without CHROMIUM_BIN.
 */
export async function openRobotPage(
  at: PageLoad,
  robotId: string,
): Promise<(() => Promise<{ polls: number; latencyMs: Percentiles; cpuSeconds: number }>) | null> {
  const executablePath = process.env.CHROMIUM_BIN;
  if (!executablePath) return null;
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  const context = await browser.newContext();
  await context.addInitScript(signedIn(at));
  const page = await context.newPage();
  const times: number[] = [];
  page.on('requestfinished', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) times.push(request.timing().responseEnd);
  });
  await page.goto(`${at.baseUrl}/robots/${robotId}`);
  // CHROMIUM_BIN may be a launcher script (Debian's is) that runs the browser's processes under another path.
  const isChromium = (args: string[]) => (/chrom(e|ium)/.test(path.basename(args[0] ?? '')) ? 'chromium' : null);
  const chromiumCpu = () => cpuSecondsBelow(process.pid, isChromium);
  const before = chromiumCpu().chromium ?? 0;
  return async () => {
    const cpuSeconds = (chromiumCpu().chromium ?? 0) - before;
    await browser.close();
    return { polls: times.length, latencyMs: percentiles(times), cpuSeconds };
  };
}
