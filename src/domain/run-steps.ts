/**
 * A run, step by step: its steps in order, each given whether it ends the run (the last); a step
 * that fails fails the run and skips the rest; a run without steps is finished as succeeded. The
 * step that ends the run records its outcome itself (src/runs/steps.ts), so a run costs one call per
 * step. The one order both places that execute runs follow: a run workflow (workflows/run.ts,
 * through local activities) and the activity that prepares a delivery of one run and executes it
 * (activities/index.ts), so it imports nothing a workflow may not.
 */
import { runsInDeliveryWorkflow } from './ids';
import type { DeliveryInput, PreparedDelivery, RunInput, RunOutcomeStatus, RunSeed, StepStatus } from './types';

export async function runSteps(
  stepCount: number,
  execute: (stepIndex: number, endsRun: boolean) => Promise<StepStatus>,
  finishWithoutSteps: () => Promise<void>,
): Promise<RunOutcomeStatus> {
  for (let stepIndex = 0; stepIndex < stepCount; stepIndex++) {
    if ((await execute(stepIndex, stepIndex === stepCount - 1)) === 'failed') return 'failed';
  }
  if (stepCount === 0) await finishWithoutSteps();
  return 'succeeded';
}

/** A run of the delivery, from its seed. */
export function runInput(delivery: DeliveryInput, seed: RunSeed, stepCount: number): RunInput {
  // An absent stepsVersion (a delivery accepted before 0.4) is left out of the payload, as before.
  const { robotId, stepsVersion } = delivery;
  return { runId: seed.runId, robotId, trigger: seed.trigger, stepCount, stepsVersion };
}

/** The delivery's single run, executed without a child workflow (src/domain/ids.ts); null: none such. */
export function onlyRunOf(delivery: DeliveryInput, prepared: PreparedDelivery): RunInput | null {
  if (prepared.outcome !== 'processed' || !runsInDeliveryWorkflow(prepared.runCount)) return null;
  const [only] = prepared.firstRuns;
  return only ? runInput(delivery, only, prepared.stepCount) : null;
}
