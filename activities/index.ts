/**
 * The workflows' activities: a thin facade over the use cases (src/deliveries, src/runs), built
 * from their dependencies as in Temporal's dependency-injection sample. Each activity turns its
 * Temporal context (heartbeats, attempt, workflow ID) into plain arguments and calls one use case.
 *
 * Writes are inserts with deterministic ids (src/storage/writes.ts), so any activity can be retried
 * after a crash and stores nothing twice; and no activity on a run's path reads a large collection.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { DEFAULT_DELIVERY_CAPS, type DeliveryCaps } from '../src/domain/delivery-caps';
import { CsvRunSeeds } from '../src/deliveries/csv-runs';
import { DeliveryRules } from '../src/deliveries/rules';
import { FanOutQuota } from '../src/deliveries/fanout-quota';
import { DeliveryPreparer } from '../src/deliveries/prepare';
import { PreparationLane, preparationAttempts } from '../src/deliveries/preparation-lane';
import { DEFAULT_PREPARATION_LIMITS, type PreparationLimits } from '../src/domain/limits';
import type { Progress } from '../src/deliveries/progress';
import {
  BODY_NOT_KEPT,
  type DeliveryInput,
  type PreparedDelivery,
  type RunOutcomeStatus,
  type RunFeatures,
  type RunSeed,
  type StepStatus,
} from '../src/domain/types';
import type { RunPreviewDoc } from '../src/storage/history-documents';
import type { HeardOutcomes } from '../src/history/heard-outcomes';
import { DeliveryRecorder } from '../src/history/slots';
import type { IssueCounter } from '../src/issues/counter';
import type { WorkerMetrics } from '../src/core/metrics';
import { robotRunsDeliveries } from '../src/robots/lifecycle';
import { RobotSettingsCache } from '../src/robots/settings';
import { StepsVersions } from '../src/robots/steps-versions';
import { StepExecutor, type StepInput } from '../src/runs/steps';
import { onlyRunOf } from '../src/domain/run-steps';
import { BlobMissing, bodyBlobId, discardBlob } from '../src/storage/blobs';
import type { Models } from '../src/storage/models';
import { groupInserts } from '../src/storage/writes';
import { notifyActivities, type NotifyActivityDeps } from './notify';

interface ActivityDeps {
  models: Models;
  metrics: WorkerMetrics;
  /** What one delivery may make (CSV_MAX_ROWS and the rest); the defaults when not given. */
  caps?: DeliveryCaps;
  /** What deliveries' workflows do beyond running runs (RUN_SEARCH_ATTRIBUTES and the rest); all on when not given. */
  features?: RunFeatures;
  /** Outcomes of runs ended here, for this process's history keeper (src/history/heard-outcomes.ts). */
  heard?: HeardOutcomes;
  /** What the worker prepares at once (PREPARING_BODY_BYTES and the rest); the defaults when not given. */
  preparation?: PreparationLimits;
  /** The worker's issue counter (src/issues/counter.ts): failed deliveries and runs count in it; none: not. */
  issues?: IssueCounter;
  /** What notifications are sent with (./notify.ts); without it, a notification's activity fails. */
  notify?: NotifyActivityDeps;
}

const ALL_FEATURES: RunFeatures = { runSearchAttributes: true, runSummaries: true, keepBodies: true, fieldsSeen: true };

/** The activity's heartbeats as Progress (a local activity, for a small body, has none). */
function progressOfActivity(): Progress {
  const ctx = Context.current();
  return {
    resumed: ctx.info.heartbeatDetails as unknown,
    beat: (details) => {
      if (!ctx.info.isLocal) ctx.heartbeat(details);
    },
  };
}

export function createActivities({
  models,
  metrics,
  caps = DEFAULT_DELIVERY_CAPS,
  features = ALL_FEATURES,
  heard,
  preparation = DEFAULT_PREPARATION_LIMITS,
  issues,
  notify,
}: ActivityDeps) {
  // Concurrent activities share their writes: one insertMany per collection at a time.
  const writes = {
    models,
    runs: groupInserts(models.Run),
    runPreviews: groupInserts<RunPreviewDoc>(models.RunPreview),
    stepResults: groupInserts(models.StepResult),
    runOutcomes: groupInserts(models.RunOutcome),
    blobChunks: groupInserts(models.BlobChunk),
  };
  const robots = new RobotSettingsCache(models);
  const versions = new StepsVersions(models);
  const deliveries = new DeliveryRecorder(models, {
    insertDelivery: groupInserts(models.Delivery),
    issues,
    heard: heard?.records,
  });
  const rules = new DeliveryRules(versions);
  const quota = new FanOutQuota(models, caps);
  // One lane per worker: every stored body this worker prepares shares its budget.
  const lane = new PreparationLane(preparation, preparationAttempts(models));
  const preparer = new DeliveryPreparer(writes, robots, versions, deliveries, metrics, caps, features, rules, quota);
  const csvRuns = new CsvRunSeeds(models, rules);
  const steps = new StepExecutor(writes, robots, versions, metrics, heard, issues);

  return {
    ...notifyActivities(models, metrics.notifications, notify),

    /**
     * Parses the body in the robot's body format, stores its runs, records the delivery (deliveries/prepare);
     * a delivery of one run also executes it (since 0.12).
     */
    async prepareDelivery(input: DeliveryInput): Promise<PreparedDelivery> {
      const { info } = Context.current();
      const workflowId = info.workflowExecution?.workflowId ?? null;
      // A stored body waits its turn in the worker's lane, or until this attempt is cancelled.
      const inLane = lane.cancelledWith(Context.current().cancellationSignal);
      const retry = info.attempt > 1;
      const prepared = await preparer.prepare(input, {
        progress: progressOfActivity(),
        workflowId,
        retry,
        lane: inLane,
      });
      // A delivery of one run executes it here: one local activity per delivery, not two (issue 57).
      const only = onlyRunOf(input, prepared);
      if (!only || prepared.outcome !== 'processed') return prepared;
      return { ...prepared, firstRuns: [], runStatus: await steps.run(only, { retry }) };
    },

    /** The seeds of runs `from` up to `to` of a csv delivery (src/deliveries/csv-runs.ts). */
    async nextRuns({ delivery, from, to }: { delivery: DeliveryInput; from: number; to: number }): Promise<RunSeed[]> {
      try {
        return await csvRuns.between(delivery, from, to, progressOfActivity());
      } catch (err) {
        // A body gone can never come back: the delivery fails once rather than retrying forever.
        if (err instanceof BlobMissing) throw ApplicationFailure.nonRetryable(err.message, BODY_NOT_KEPT);
        throw err;
      }
    },

    /** Removes a large body once every run of its delivery has started. */
    async discardBody({ deliveryId, chunks }: { deliveryId: string; chunks: number }): Promise<void> {
      await discardBlob(models, bodyBlobId(deliveryId), chunks);
    },

    /** Whether a held delivery may go on (src/robots/lifecycle.ts). */
    async robotAtWork({ robotId }: { robotId: string }): Promise<boolean> {
      return robotRunsDeliveries(models, robotId);
    },

    /** Executes one step of a run and stores its result; the step that ends the run records its outcome. */
    async executeStep(input: StepInput): Promise<StepStatus> {
      return steps.execute(input, { retry: Context.current().info.attempt > 1 });
    },

    /** Records how a run without steps ended. */
    async finishRun(input: { runId: string; robotId: string; status: RunOutcomeStatus }): Promise<void> {
      await steps.finish(input.runId, input.robotId, input.status);
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
