/**
 * The health answers of the metrics ports (`GET /healthz`): the receiver's (src/runtime/app.ts) and
 * the worker's (src/runtime/worker-metrics-port.ts). Each looks at what it depends on at most once per
 * HEALTH_CACHE_MS, one look at a time, so a probe or a scrape every second costs one round trip each.
 */

/** How long a health answer is reused: a scrape or a probe every second costs one round trip each way. */
export const HEALTH_CACHE_MS = 1000;

/** `check`, its answer reused for `ms` (and shared by every caller while it runs). */
export function reusedFor<T>(ms: number, check: () => Promise<T>): () => Promise<T> {
  let last: { at: number; answer: Promise<T> } | null = null;
  return () => {
    if (!last || Date.now() - last.at > ms) last = { at: Date.now(), answer: check() };
    return last.answer;
  };
}
