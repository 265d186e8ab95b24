import { proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
import { runWorkflowId } from '../src/domain/ids';
import type { Activities } from '../activities';
import type { RunInput, RunOutcomeStatus } from '../src/domain/types';
import { runSteps } from '../src/domain/run-steps';
import { refuseCopied, refuseUnsealed } from './refuse-unsealed';

const { executeStep, finishRun } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds' },
});

/**
 * One run of a robot: its steps in order (src/domain/run-steps.ts), one local activity per step. A
 * child workflow `run:<runId>` for each run of a fan-out; the delivery workflow calls it directly
 * for a single run the activity that prepared it did not execute (a worker before 0.12's).
 */
export async function runWorkflow(run: RunInput): Promise<RunOutcomeStatus> {
  refuseUnsealed('run', run);
  // As a child of a fan-out (a single run is called by its delivery workflow, whose ID that checked).
  if (workflowInfo().workflowType === 'runWorkflow')
    refuseCopied('run', { workflowId: runWorkflowId(run.runId), parent: true });
  const { runId, robotId, trigger, stepCount, stepsVersion } = run;
  return runSteps(
    stepCount,
    (stepIndex, endsRun) => executeStep({ runId, robotId, stepIndex, trigger, endsRun, stepsVersion }),
    () => finishRun({ runId, robotId, status: 'succeeded' }),
  );
}
