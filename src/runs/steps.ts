/**
 * Executing a run's steps: each step's template is resolved against the run's trigger data
 * (`{{trigger.*}}`) and its result stored; a retry keeps the first stored result. The step that
 * ends the run (the last, or one that failed) is stored with the run's outcome, in one insert. A run
 * that fails counts in its robot's issue `step:<name>` (src/domain/issues.ts) once its outcome is
 * stored, never again by a retried attempt that found it stored.
 */
import { ApplicationFailure } from '@temporalio/common';
import { STORED_TRIGGERS_KEPT } from '../domain/limits';
import { resolveTemplate } from '../domain/placeholders';
import type { JsonValue, RunInput, RunOutcomeStatus, StepStatus, TriggerRef } from '../domain/types';
import { runSteps } from '../domain/run-steps';
import type { HeardOutcomes } from '../history/heard-outcomes';
import type { WorkerMetrics } from '../core/metrics';
import type { RobotSettingsCache } from '../robots/settings';
import type { StepsVersions } from '../robots/steps-versions';
import { loadJson, outputBlobId, storeJson, triggerBlobId } from '../storage/blobs';
import type { EndingStep, RunOutcomeDoc, StepResultDoc } from '../storage/documents';
import type { Models } from '../storage/models';
import type { GroupedInsert } from '../storage/writes';
import { byId } from '../storage/by-id';
import { runOfId } from '../domain/ids';
import { runFailedReason } from '../domain/issues';
import type { IssueCounter } from '../issues/counter';

export interface StepInput {
  runId: string;
  robotId: string;
  stepIndex: number;
  trigger: TriggerRef;
  endsRun: boolean;
  /** The steps version of the run's delivery; absent (before 0.4): the robot's current steps. */
  stepsVersion?: number;
}

interface StepWrites {
  models: Models;
  stepResults: GroupedInsert<StepResultDoc>;
  runOutcomes: GroupedInsert<RunOutcomeDoc>;
}

export class StepExecutor {
  /** Large trigger data read from stored runs, kept for their next steps. */
  private readonly storedTriggers = new Map<string, JsonValue>();

  constructor(
    private readonly writes: StepWrites,
    private readonly robots: RobotSettingsCache,
    private readonly versions: StepsVersions,
    private readonly metrics: WorkerMetrics,
    /** This process's history keeper hears each outcome once it is stored. */
    private readonly heard?: HeardOutcomes,
    /** The process's issue counter (none: failed runs are not counted). */
    private readonly issues?: IssueCounter,
  ) {}

  /** Executes the step; `retry`: an earlier attempt may have stored its result. */
  async execute(input: StepInput, { retry = false } = {}): Promise<StepStatus> {
    const steps =
      input.stepsVersion === undefined
        ? (await this.robots.get(input.robotId)).steps
        : await this.versions.get(input.robotId, input.stepsVersion);
    const step = steps[input.stepIndex];
    if (!step)
      throw ApplicationFailure.nonRetryable(`robot ${input.robotId} has no step ${input.stepIndex}`, 'StepNotFound');
    const trigger = await this.triggerOf(input.runId, input.trigger);
    const result: EndingStep = { index: input.stepIndex, name: step.name, status: 'succeeded' };
    let outputJson: string | undefined;
    try {
      outputJson = JSON.stringify(resolveTemplate(JSON.parse(step.templateJson) as JsonValue, trigger));
    } catch (err) {
      Object.assign(result, { status: 'failed', error: (err as Error).message });
    }
    // Outside the try: a database error is retried, it does not fail the step.
    if (outputJson !== undefined)
      result.output = await storeJson(this.writes.models, outputBlobId(input.runId, input.stepIndex), outputJson);
    // The step that ends the run is stored with its outcome: one insert instead of two.
    if (input.endsRun || result.status === 'failed') {
      const failed = result.status === 'failed';
      // Read before the outcome is stored: a retry that finds it stored counts nothing again.
      const counted = failed && this.issues ? await this.uncounted(input, retry) : null;
      await this.finish(input.runId, input.robotId, failed ? 'failed' : 'succeeded', result);
      if (counted) {
        const { deliveryId } = runOfId(input.runId);
        const cause = { kind: 'run_failed' as const, reason: runFailedReason(step.name) };
        this.issues?.hit({ robotId: input.robotId, ...counted, ...cause, deliveryId, at: new Date() });
      }
    } else {
      await this.writes.stepResults([{ _id: `${input.runId}:${input.stepIndex}`, runId: input.runId, ...result }]);
    }
    return result.status;
  }

  /** The failed run's workspace, unless a retried attempt finds its outcome stored (counted by then). */
  private async uncounted(input: StepInput, retry: boolean): Promise<{ workspaceId: string } | null> {
    if (retry && (await byId(this.writes.models.RunOutcome, input.runId))) return null;
    return { workspaceId: (await this.robots.get(input.robotId)).robot.workspaceId };
  }

  /** Executes a whole run here, its steps in order (src/domain/run-steps.ts); `retry` as for `execute`. */
  run(run: RunInput, { retry = false } = {}): Promise<RunOutcomeStatus> {
    const { runId, robotId, trigger, stepCount, stepsVersion } = run;
    return runSteps(
      stepCount,
      (stepIndex, endsRun) => this.execute({ runId, robotId, stepIndex, trigger, endsRun, stepsVersion }, { retry }),
      () => this.finish(runId, robotId, 'succeeded'),
    );
  }

  /** Records how a run ended, with the step that ended it (none for a robot without steps). */
  async finish(runId: string, robotId: string, status: RunOutcomeStatus, endingStep?: EndingStep): Promise<void> {
    this.storedTriggers.delete(runId);
    const finishedAt = new Date();
    await this.writes.runOutcomes([{ _id: runId, robotId, status, finishedAt, ...(endingStep ? { endingStep } : {}) }]);
    this.heard?.heard(robotId, runId, { status, finishedAt });
    this.metrics.runs.inc({ status });
  }

  /** The trigger data of a run whose data was too large to travel inline (kept for its next steps). */
  private async triggerOf(runId: string, ref: TriggerRef): Promise<JsonValue> {
    if (ref.kind === 'inline') return ref.data;
    let data = this.storedTriggers.get(runId);
    if (data === undefined) {
      const run = await this.writes.models.Run.findById(runId, { trigger: 1 }).lean();
      if (!run) throw ApplicationFailure.nonRetryable(`run ${runId} not found`, 'RunNotFound');
      data = JSON.parse(await loadJson(this.writes.models, triggerBlobId(runId), run.trigger)) as JsonValue;
      if (this.storedTriggers.size >= STORED_TRIGGERS_KEPT)
        this.storedTriggers.delete(this.storedTriggers.keys().next().value!);
      this.storedTriggers.set(runId, data);
    }
    return data;
  }
}
