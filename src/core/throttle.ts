/**
 * Refusals are throttled (src/domain/limits/requests.ts, Refusals): a key (a client's address, a trigger)
 * may be refused a few times a minute; past that it is answered 429 with Retry-After until its
 * minute ends, and nothing more is checked, logged or recorded for it. Counted in memory, per
 * process, in fixed windows (a minute unless given); at most THROTTLE_ENTRIES keys are remembered
 * (the oldest go first, so a spray of keys cannot grow the process).
 */
import { THROTTLE_ENTRIES } from '../domain/limits';

const MINUTE_MS = 60_000;

/** Too many refusals for one key this minute: answered 429 with Retry-After. */
class Throttled extends Error {
  readonly status = 429;
  readonly expected = true;
  readonly headers: Record<string, string>;
  constructor(what: string, retryAfterSeconds: number) {
    super(`too many ${what}; try again in ${retryAfterSeconds} s`);
    this.headers = { 'Retry-After': String(retryAfterSeconds) };
  }
}

export class Throttle {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    /** What is counted, for the 429's message ("failed admin logins"). */
    private readonly what: string,
    private readonly perWindow: number,
    private readonly maxKeys = THROTTLE_ENTRIES,
    private readonly windowMs = MINUTE_MS,
  ) {}

  /** Throws Throttled when the key has used up its minute. */
  check(key: string, now = Date.now()): void {
    const w = this.windows.get(key);
    if (w && now - w.start < this.windowMs && w.count >= this.perWindow)
      throw new Throttled(this.what, Math.ceil((w.start + this.windowMs - now) / 1000));
  }

  /** Whether the key has some of its minute left (counts nothing). */
  within(key: string, now = Date.now()): boolean {
    const w = this.windows.get(key);
    return !(w && now - w.start < this.windowMs && w.count >= this.perWindow);
  }

  /** Counts one for the key and says whether it was still within its minute (never throws). */
  take(key: string, now = Date.now()): boolean {
    if (!this.within(key, now)) return false;
    this.count(key, now);
    return true;
  }

  /** Counts one refusal of the key. */
  count(key: string, now = Date.now()): void {
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      this.windows.delete(key);
      w = { start: now, count: 0 };
      if (this.windows.size >= this.maxKeys) this.windows.delete(this.windows.keys().next().value!);
      this.windows.set(key, w);
    }
    w.count++;
  }
}
