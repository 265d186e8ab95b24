import { proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
import { runWorkflowId } from '../src/domain/ids';
import type { Activities } from '../activities';
import type { RunInput, RunOutcomeStatus } from '../src/domain/types';
import { refuseCopied, refuseUnsealed } from './refuse-unsealed';

const { executeStep, finishRun } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds' },
});

/**
 * One run of a robot: its steps in order; a failed step fails the run and skips the rest. The
 * step that ends the run (the last one, or one that fails) also records the run's outcome, so a
 * run costs one local activity per step. A child workflow `run:<runId>` for each run of a
 * fan-out; the delivery workflow calls it directly when the delivery makes a single run.
 */
export async function runWorkflow(run: RunInput): Promise<RunOutcomeStatus> {
  refuseUnsealed('run', run);
  // As a child of a fan-out (a single run is called by its delivery workflow, whose ID that checked).
  if (workflowInfo().workflowType === 'runWorkflow')
    refuseCopied('run', { workflowId: runWorkflowId(run.runId), parent: true });
  const { runId, robotId, trigger, stepCount, stepsVersion } = run;
  for (let stepIndex = 0; stepIndex < stepCount; stepIndex++) {
    const endsRun = stepIndex === stepCount - 1;
    if ((await executeStep({ runId, robotId, stepIndex, trigger, endsRun, stepsVersion })) === 'failed')
      return 'failed';
  }
  if (stepCount === 0) await finishRun({ runId, robotId, status: 'succeeded' });
  return 'succeeded';
}
