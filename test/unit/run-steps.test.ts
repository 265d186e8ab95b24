/** A run step by step, and a delivery's only run (src/domain/run-steps.ts), as workflow and activity run them. */
import { onlyRunOf, runSteps } from '../../src/domain/run-steps';
import type { DeliveryInput, PreparedDelivery, StepStatus } from '../../src/domain/types';

async function ran(stepCount: number, failAt?: number) {
  const calls: string[] = [];
  const status = await runSteps(
    stepCount,
    (i, endsRun) => {
      calls.push(`${i}${endsRun ? ' ends' : ''}`);
      return Promise.resolve<StepStatus>(i === failAt ? 'failed' : 'succeeded');
    },
    () => {
      calls.push('finish');
      return Promise.resolve();
    },
  );
  return { status, calls };
}

it('executes the steps in order, the last one ending the run; a run without steps is finished', async () => {
  expect(await ran(3)).toEqual({ status: 'succeeded', calls: ['0', '1', '2 ends'] });
  expect(await ran(0)).toEqual({ status: 'succeeded', calls: ['finish'] });
});

it('fails the run at the step that fails and skips the rest', async () => {
  expect(await ran(3, 1)).toEqual({ status: 'failed', calls: ['0', '1'] });
});

it("gives a delivery's single run, and nothing for a fan-out or a delivery without runs", () => {
  const delivery = { robotId: 'r1', stepsVersion: 4 } as DeliveryInput;
  const seed = { runId: 'd1-00000000', trigger: { kind: 'inline' as const, data: { a: 1 } }, bytes: 7 };
  const processed = (runCount: number): PreparedDelivery => ({
    outcome: 'processed',
    runCount,
    stepCount: 2,
    firstRuns: runCount > 0 ? [seed] : [],
  });
  expect(onlyRunOf(delivery, processed(1))).toEqual({
    runId: 'd1-00000000',
    robotId: 'r1',
    trigger: seed.trigger,
    stepCount: 2,
    stepsVersion: 4,
  });
  expect(onlyRunOf(delivery, processed(3))).toBeNull();
  expect(onlyRunOf(delivery, processed(0))).toBeNull();
  expect(onlyRunOf(delivery, { outcome: 'dropped', reason: 'empty body' })).toBeNull();
});
