import { ApplicationFailure, log } from '@temporalio/workflow';
import { isUnsealed, UNSEALED_INPUT } from '../src/domain/unsealed';

/**
 * A start nobody sealed (src/domain/unsealed.ts: made by whoever reached Temporal, not by a
 * receiver) fails at once, with a warning in the worker's log: nothing is parsed, run or recorded.
 * A sealed input is never the stand-in, so this adds no command: histories replay as before.
 */
export function refuseUnsealed(workflow: string, ...args: unknown[]): void {
  if (!args.some(isUnsealed)) return;
  log.warn(`refused a ${workflow} workflow whose input this service did not seal: it was not started by a receiver`, {
    expectedFailure: UNSEALED_INPUT,
  });
  throw ApplicationFailure.nonRetryable('refused: the input was not sealed by this service', UNSEALED_INPUT);
}
