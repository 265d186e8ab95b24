/**
 * What one worker prepares at once (defaults of PREPARING_BODY_BYTES, LARGE_BODY_PREPARATIONS,
 * PREPARATION_ATTEMPTS; src/deliveries/preparation-lane.ts). Parsing a body costs many times its
 * bytes of heap (a 32 MiB JSON body of small objects: +541 MiB at its peak, a 4 MiB nested form
 * +229 MiB), and a worker takes 50 activities at once: without a bound, a sender posting large
 * bodies to one URL could run the worker out of memory, and every retry would do it again. Bodies
 * that travelled inline (INLINE_BODY_BYTES) are not counted: at most 200 local activities of
 * 128 KiB each, the hot path of ordinary deliveries, which never waits here.
 */
import { MiB } from './units';

/**
 * Bytes of stored bodies one worker prepares at once: two of the largest body (MAX_BODY_BYTES),
 * about 1.1 GB of heap at the worst measured cost per byte, a quarter of Node's default heap. A
 * body past what is free waits (its activity heartbeating) until enough is given back; one larger
 * than the whole budget is prepared alone.
 */
export const DEFAULT_PREPARING_BODY_BYTES = 64 * MiB;
/**
 * Stored-body preparations one worker runs at once, whatever their size: their parsing holds the
 * event loop, so more at once only holds more heap at once, no sooner done.
 */
export const DEFAULT_LARGE_BODY_PREPARATIONS = 2;
/**
 * Attempts at preparing one stored body that were under way when their worker stopped (killed, out
 * of memory) before the delivery is given up as `failed` naming the setting: a body that kills its
 * worker is tried three times, not forever. An attempt that ends with an error (the store down) is
 * not counted: it is retried as before.
 */
export const DEFAULT_PREPARATION_ATTEMPTS = 3;

/** The settings above, as a worker is given them. */
export interface PreparationLimits {
  /** PREPARING_BODY_BYTES */
  bodyBytes: number;
  /** LARGE_BODY_PREPARATIONS */
  largeBodies: number;
  /** PREPARATION_ATTEMPTS */
  attempts: number;
}

export const DEFAULT_PREPARATION_LIMITS: PreparationLimits = {
  bodyBytes: DEFAULT_PREPARING_BODY_BYTES,
  largeBodies: DEFAULT_LARGE_BODY_PREPARATIONS,
  attempts: DEFAULT_PREPARATION_ATTEMPTS,
};
