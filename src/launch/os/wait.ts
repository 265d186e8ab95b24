/**
 * Waiting on a condition, not a sleep: the one polling loop of the tests, the fault tests and
 * the bench. Imports nothing, so a unit test can use it without loading a stack.
 */

interface WaitOptions<T> {
  /** Time between reads; by default 100 ms, and once a second for waits over a minute. */
  intervalMs?: number;
  /** The error's message when time is up, from the last value read; by default it shows that value. */
  message?: (last: T) => string;
}

/**
 * Polls `read` until `done` holds for its value, and returns that value. Fails with the last
 * value seen if it does not hold within `timeoutMs`. Long waits poll once a second, so that
 * counting runs does not slow the runs down.
 */
export async function waitFor<T, U extends T>(
  read: () => T | Promise<T>,
  done: (value: T) => value is U,
  timeoutMs?: number,
  options?: WaitOptions<T>,
): Promise<U>;
export async function waitFor<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  timeoutMs?: number,
  options?: WaitOptions<T>,
): Promise<T>;
export async function waitFor<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 60_000,
  options: WaitOptions<T> = {},
): Promise<T> {
  const intervalMs = options.intervalMs ?? (timeoutMs > 60_000 ? 1000 : 100);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(
        options.message?.(value) ??
          `condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)?.slice(0, 2000)}`,
      );
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
