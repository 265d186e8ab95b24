/**
 * The do-nothing delivery workflow's one local activity (bench/workflows.ts `benchDelivery`), run
 * by the bench's own worker: it does nothing but note when it ran, which ends that workflow's
 * work as a run's outcome written ends a delivery's (bench/phases/delivery-floor.ts).
 */

/** When each do-nothing delivery's activity ran (epoch ms), in this process; emptied by each turn. */
export const ranAt: number[] = [];

export function benchNothing(): Promise<void> {
  ranAt.push(Date.now());
  return Promise.resolve();
}
