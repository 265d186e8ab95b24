import { proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { RunInput, RunOutcomeStatus } from '../src/domain/types';

const { executeStep, finishRun } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds' },
});

/**
 * One run of a robot: its steps in order; a failed step fails the run and skips the rest.
 * A child workflow `run:<runId>` for each run of a fan-out; the delivery workflow calls it
 * directly when the delivery makes a single run.
 */
export async function runWorkflow(run: RunInput): Promise<RunOutcomeStatus> {
  let status: RunOutcomeStatus = 'succeeded';
  for (let stepIndex = 0; stepIndex < run.stepCount; stepIndex++) {
    if ((await executeStep({ runId: run.runId, robotId: run.robotId, stepIndex, trigger: run.trigger })) === 'failed') {
      status = 'failed';
      break;
    }
  }
  await finishRun({ runId: run.runId, robotId: run.robotId, status });
  return status;
}
