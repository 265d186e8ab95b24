import { ApplicationFailure, log, workflowInfo } from '@temporalio/workflow';
import { COPIED_INPUT, isUnsealed, UNSEALED_INPUT } from '../src/domain/unsealed';

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

/**
 * A sealed input started under another workflow than the one it was sealed for (src/domain/unsealed.ts,
 * COPIED_INPUT) fails at once, as an unsealed one does: a delivery runs only under the ID its trigger
 * and dedup key derive (`deliveryWorkflowId`), and a run's own workflow only as `run:<runId>` started
 * by a delivery (its parent). True of every workflow a receiver or a delivery started, so no history
 * replays otherwise, and it adds no command.
 */
export function refuseCopied(workflow: string, expected: { workflowId: string; parent: boolean }): void {
  const info = workflowInfo();
  if (info.workflowId === expected.workflowId && (!expected.parent || info.parent !== undefined)) return;
  log.warn(`refused a ${workflow} workflow whose sealed input was made for another workflow: a copy`, {
    expectedFailure: COPIED_INPUT,
    expectedWorkflowId: expected.workflowId,
  });
  throw ApplicationFailure.nonRetryable('refused: the input was sealed for another workflow', COPIED_INPUT);
}
