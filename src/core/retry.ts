/**
 * Doing again what failed for a moment (a database that did not answer, a write lost with its
 * connection): the one retry helper of the service's requests. Only for work that may be done
 * twice (an insert that claims a fresh id, an update that sets a value). Imports nothing.
 */

/** How often `retried` tries, and how long it waits before the second try (doubled before each next one). */
export interface RetryPlan {
  attempts: number;
  firstDelayMs: number;
}

/** Runs `work` until it succeeds, at most `plan.attempts` times; throws the last failure. */
export async function retried<T>(work: () => Promise<T>, plan: RetryPlan): Promise<T> {
  for (let attempt = 1, delay = plan.firstDelayMs; ; attempt++, delay *= 2) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= plan.attempts) throw err;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
