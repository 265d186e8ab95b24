/**
 * The delivery inspector as a person opens it (issue 54): the page of one delivery, in chromium,
 * each load in a fresh browser context (nothing cached), timed from navigation until the first part
 * of its body is shown, and the page's JavaScript heap then (Chrome's own measure, through its
 * DevTools protocol). A delivery of a 32 MiB text body (the largest a sender may post) against a
 * 1 KiB one, measured the same way in the same run: the body is read a part at a time, so the large
 * one should cost about what the small one does. Without CHROMIUM_BIN it is left out.
 */
import type { ApiClient } from '../../src/client/api-client';
import { robotAtWork } from '../../src/client/api-client';
import { DEFAULT_MAX_BODY_BYTES } from '../../src/domain/limits';
import { percentiles, type Percentiles } from '../load';
import { timedLoads, type PageLoad } from '../page-load';
import { log, round } from '../util';
import { waitFor } from '../../src/launch/os/wait';

export interface InspectorLoad {
  bodyBytes: number;
  ms: Percentiles;
  /** The page's JavaScript heap in use once the body's first part is shown (MB, the largest seen). */
  heapMb: number;
}

export interface InspectorResult {
  small: InspectorLoad;
  large: InspectorLoad;
  /** large p50 ÷ small p50. */
  ratio: number;
}

/** Loads timed per body, after two untimed. */
const LOADS = 10;

async function loads(at: PageLoad, deliveryId: string, bodyBytes: number): Promise<InspectorLoad | null> {
  let heap = 0;
  const times = await timedLoads(at, `/deliveries/${deliveryId}`, 'pre[aria-label^="Body"]', LOADS, async (page) => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const { metrics } = await cdp.send('Performance.getMetrics');
    heap = Math.max(heap, metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0);
  });
  return times && { bodyBytes, ms: percentiles(times), heapMb: round(heap / 2 ** 20, 1) };
}

/** A delivery of `bytes` of text to a robot of its own, once it is recorded: its id. */
async function deliveryOf(api: ApiClient, bytes: number): Promise<string> {
  const robot = await robotAtWork(api, { template: { n: '1' }, bodyFormat: 'text', appName: 'inspected' });
  const body = Buffer.alloc(bytes, 'line of text in a large body\n');
  const sent = await fetch(robot.webhookUrl, { method: 'POST', body, headers: { 'content-type': 'text/plain' } });
  if (!sent.ok) throw new Error(`the inspector's ${bytes}-byte delivery was answered ${sent.status}`);
  const recorded = await waitFor(
    () => api.json<{ deliveries: Array<{ id: string }> }>('GET', `/api/robots/${robot.robotId}/deliveries?limit=1`),
    (page) => page.deliveries.length === 1,
  );
  return recorded.deliveries[0].id;
}

export async function inspectorLoads(api: ApiClient, at: PageLoad): Promise<InspectorResult | null> {
  if (!process.env.CHROMIUM_BIN) return null;
  log('the delivery inspector: a 1 KiB body and a 32 MiB one, opened in chromium');
  const small = await loads(at, await deliveryOf(api, 1024), 1024);
  const large = await loads(at, await deliveryOf(api, DEFAULT_MAX_BODY_BYTES), DEFAULT_MAX_BODY_BYTES);
  return small && large && { small, large, ratio: round(large.ms.p50 / small.ms.p50, 2) };
}
