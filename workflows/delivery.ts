import {
  ApplicationFailure,
  ParentClosePolicy,
  condition,
  continueAsNew,
  defineSignal,
  deprecatePatch,
  log,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  startChild,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { deliveryWorkflowId, runWorkflowId } from '../src/domain/ids';
import { onlyRunOf, runInput } from '../src/domain/run-steps';
import { DEFAULT_WORKSPACE } from '../src/domain/workspaces';
import { BODY_FORMAT, DELIVERY_OUTCOME, runAttributes } from '../src/domain/search-attributes';
import {
  UNPARSABLE_BODY,
  type BodyFormat,
  type DeliveryFailure,
  type DeliveryInput,
  type DeliveryResult,
  type PreparedDelivery,
  type RunFeatures,
  type RunSeed,
} from '../src/domain/types';
import { refuseCopied, refuseUnsealed } from './refuse-unsealed';
import { runWorkflow } from './run';
import { CONTINUATION_BYTES, RUN_START_BATCH, RUNS_PER_CONTINUATION } from '../src/domain/limits';

const activities = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});
/**
 * A body that travelled inline (INLINE_BODY_BYTES, 128 KiB by default) is prepared in a local
 * activity: one round trip less.
 */
const local = proxyLocalActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/**
 * Workflow versions (Temporal's `patched()`): a change that would make an open workflow of an
 * older worker replay differently is taken only by workflows that start after it. Each patch is
 * removed (with `deprecatePatch`, then not at all) once no workflow of the older code is open or
 * in retention. test/replay.test.ts replays histories of every version still supported.
 *
 * Since 0.9 the patches of 0.2 to 0.5 are deprecated: every workflow takes their new path, and
 * their markers say so, so that the next version can drop the calls (the SDK refuses a history
 * whose marker is not deprecated once its call is gone). Each still costs two history events (the
 * marker and an upsert of `TemporalChangeVersion`): six of a one-run json delivery's 13, whose
 * removal saved nothing measurable (docs/benchmark.md, issue 44). Histories of 0.5 and later
 * replay; those of earlier versions do not (docs/operations.md, Upgrading to 0.9).
 *
 * 0.12 needs no patch: the activity that prepares a delivery of one run executes it too, and says so
 * in its result (`runStatus`), which the history records. A history recorded before holds a result
 * without it, so its replay runs the run here as it was run; the decision is the recorded result's.
 */
/** 0.2: a failed or dropped delivery's stored body is discarded too (it was kept forever). */
const PATCH_DISCARD_UNUSED_BODY = 'discard-body-of-failed-and-dropped-deliveries';

/** 0.3: BodyFormat and DeliveryOutcome search attributes, a summary on each run, the delivery's details. */
const PATCH_SEARCH_ATTRIBUTES = 'search-attributes-and-summaries';

/** 0.4: the raw body is kept for replay while the delivery is in the history (retention removes it). */
const PATCH_KEEP_BODY = 'keep-body-for-replay';

/**
 * 0.5: the delivery starts with its body format and the outcome `processed` (or `held`) as search
 * attributes; its workflow updates them only when they turn out otherwise.
 */
const PATCH_OUTCOME_AT_START = 'outcome-and-format-at-start';

/**
 * 0.5: a held delivery waits for the release's signal (or its hourly look) instead of first asking
 * whether its robot is at work: one whose first workflow task ran only after the resume (a busy or
 * stopped worker) went ahead of the release, out of arrival order (issue 22). Not deprecated: a
 * delivery held by a 0.4 worker may wait for its robot's resume for as long as the robot is paused.
 */
const PATCH_HELD_UNTIL_RELEASED = 'held-until-released';

/**
 * A held delivery (its robot was paused) asks again whether its robot is at work this often, in
 * case the resume's release missed it (docs/api.md, Pause): about 6 history events an hour.
 */
const HELD_RECHECK = '1 hour';

/** What a delivery's failure log line says, by failure type. */
const FAILURE_LINES: Record<DeliveryFailure, string> = {
  UnparsableBody: 'the body does not parse',
  DeliveryOverCap: 'it would make more than a cap allows',
  BodyNotKept: 'its body is no longer kept',
};

/** The robot's resume releases the deliveries held for it, one after another in arrival order. */
export const releaseSignal = defineSignal('release');

/** Where a fan-out stands, carried across continue-as-new. */
interface FanOut {
  runCount: number;
  stepCount: number;
  nextRun: number;
  /** The body format the delivery was parsed in (in its runs' summaries), since 0.3. */
  format?: BodyFormat;
  /** What the worker that prepared it was set to do beyond running runs, since 0.5 (absent: all on). */
  features?: RunFeatures;
}

/**
 * One accepted webhook delivery. Its workflow ID is derived from the dedup key, so Temporal
 * itself refuses a repeat. It parses the body in the app's format and stores the runs (an
 * activity). A single run (json, xml, text, a one-row csv) executes right here; a csv with
 * more rows fans out to one child run workflow per row. A body that does not parse fails the
 * workflow, which frees its ID for a later genuine delivery.
 */
export async function deliveryWorkflow(delivery: DeliveryInput, fanOut?: FanOut): Promise<DeliveryResult> {
  refuseUnsealed('delivery', delivery, fanOut);
  refuseCopied('delivery', {
    workflowId: deliveryWorkflowId(delivery.triggerIdentifier, delivery.dedupKey),
    parent: false,
  });
  let released = false;
  setHandler(releaseSignal, () => void (released = true));
  let seeds: RunSeed[] = [];
  if (!fanOut && delivery.held) {
    // Held for a paused robot: nothing is parsed or run until the resume's release signals it, in
    // arrival order; every hour it asks whether its robot is at work, in case the release missed it.
    if (patched(PATCH_HELD_UNTIL_RELEASED)) {
      while (!(await condition(() => released, HELD_RECHECK))) {
        if (await local.robotAtWork({ robotId: delivery.robotId })) break;
        if (workflowInfo().continueAsNewSuggested) return continueAsNew<typeof deliveryWorkflow>(delivery);
      }
    } else {
      while (!(await local.robotAtWork({ robotId: delivery.robotId }))) {
        if (await condition(() => released, HELD_RECHECK)) break;
        if (workflowInfo().continueAsNewSuggested) return continueAsNew<typeof deliveryWorkflow>(delivery);
      }
    }
  }
  if (!fanOut) {
    const prepare = delivery.body.kind === 'inline' ? local.prepareDelivery : activities.prepareDelivery;
    const prepared = await prepare(delivery);
    deprecatePatch(PATCH_SEARCH_ATTRIBUTES);
    deprecatePatch(PATCH_OUTCOME_AT_START);
    showInWebUi(delivery, prepared);
    if (prepared.outcome !== 'processed') {
      deprecatePatch(PATCH_DISCARD_UNUSED_BODY);
      await discardStoredBody(delivery, prepared.features);
    }
    if (prepared.outcome === 'failed') {
      // The parser's message may quote the body, which no log line holds: its kind only ("invalid JSON").
      const reason = prepared.error.split(':')[0];
      const failure = prepared.failure ?? UNPARSABLE_BODY;
      log.info(`delivery failed: ${FAILURE_LINES[failure]}`, { ...idsOf(delivery), reason, expectedFailure: failure });
      throw ApplicationFailure.nonRetryable(prepared.error, failure);
    }
    // Filtered (0.6) is new: no history of an earlier version holds it, so this replays as before.
    if (prepared.outcome === 'dropped' || prepared.outcome === 'filtered') return prepared;
    // One workflow per delivery instead of a parent and a child (README, Benchmark); its run executed
    // by the preparing activity since 0.12, here for a result recorded before (see the versions above).
    const only = onlyRunOf(delivery, prepared);
    const runStatus = prepared.runStatus ?? (only && (await runWorkflow(only)));
    if (runStatus) {
      await discardStoredBody(delivery, prepared.features);
      return { outcome: 'processed', runCount: 1, runStatus };
    }
    fanOut = {
      runCount: prepared.runCount,
      stepCount: prepared.stepCount,
      nextRun: 0,
      format: prepared.format,
      ...(prepared.features ? { features: prepared.features } : {}),
    };
    seeds = prepared.firstRuns;
  }

  const end = Math.min(fanOut.runCount, fanOut.nextRun + RUNS_PER_CONTINUATION);
  let next = fanOut.nextRun;
  let bytes = 0;
  while (next < end && bytes < CONTINUATION_BYTES) {
    if (seeds.length === 0)
      seeds = await activities.nextRuns({ delivery, from: next, to: Math.min(end, next + RUN_START_BATCH) });
    const batch = seeds.splice(0, Math.min(RUN_START_BATCH, end - next));
    await Promise.all(batch.map((seed, i) => startRun(delivery, seed, fanOut, next + i)));
    next += batch.length;
    bytes += batch.reduce((sum, seed) => sum + seed.bytes, 0);
  }
  if (next < fanOut.runCount) return continueAsNew<typeof deliveryWorkflow>(delivery, { ...fanOut, nextRun: next });

  await discardStoredBody(delivery, fanOut.features);
  return { outcome: 'processed', runCount: fanOut.runCount };
}

/** What every log line about a delivery carries (the SDK adds the workflow's id). */
function idsOf(delivery: DeliveryInput) {
  const { deliveryId, robotId, workspaceId = DEFAULT_WORKSPACE, triggerIdentifier } = delivery;
  return { deliveryId, robotId, workspaceId, triggerIdentifier };
}

/** A stored body is discarded once it is no longer needed, unless it is kept for replay (KEEP_BODIES, since 0.4). */
async function discardStoredBody(delivery: DeliveryInput, features: RunFeatures | undefined): Promise<void> {
  deprecatePatch(PATCH_KEEP_BODY);
  if (features?.keepBodies !== false) return;
  if (delivery.body.kind === 'stored')
    await activities.discardBody({ deliveryId: delivery.deliveryId, chunks: delivery.body.chunks });
}

/**
 * A run of a fan-out as a child workflow. Since 0.3 (a format in the fan-out) it carries its robot
 * as a search attribute (its trigger and format too, before 0.6) and a summary; the options of a
 * child's start are not compared on replay.
 */
function startRun(delivery: DeliveryInput, seed: RunSeed, fanOut: FanOut, index: number) {
  const { format, features } = fanOut;
  const attributes = format !== undefined && features?.runSearchAttributes !== false;
  const summary = format !== undefined && features?.runSummaries !== false;
  const described = {
    ...(attributes ? { typedSearchAttributes: runAttributes(delivery) } : {}),
    ...(summary
      ? {
          staticSummary:
            `Run ${index + 1} of ${fanOut.runCount} (${format} row ${index + 1}) ` +
            `for robot ${robotNameOf(delivery)}`,
        }
      : {}),
  };
  return startChild(runWorkflow, {
    workflowId: runWorkflowId(seed.runId),
    args: [runInput(delivery, seed, fanOut.stepCount)],
    // Runs go on by themselves: the delivery is done once they have started.
    parentClosePolicy: ParentClosePolicy.ABANDON,
    ...described,
  });
}

function robotNameOf(delivery: DeliveryInput): string {
  return delivery.robotName === undefined ? delivery.robotId : JSON.stringify(delivery.robotName);
}

/**
 * What an operator sees of a delivery in the Web UI: its format and outcome, searchable, and its
 * details. The attributes it started with are updated only when they differ (since 0.5).
 */
function showInWebUi(delivery: DeliveryInput, prepared: PreparedDelivery): void {
  const now = workflowInfo().typedSearchAttributes;
  const attributes = [
    { key: DELIVERY_OUTCOME, value: prepared.outcome },
    ...(prepared.format ? [{ key: BODY_FORMAT, value: prepared.format }] : []),
  ];
  const changed = attributes.filter(({ key, value }) => now.get(key) !== value);
  if (changed.length > 0) upsertSearchAttributes(changed);
  const what =
    prepared.outcome === 'processed'
      ? `${prepared.runCount} run${prepared.runCount === 1 ? '' : 's'}`
      : prepared.outcome === 'dropped' || prepared.outcome === 'filtered'
        ? `${prepared.outcome}: ${prepared.reason}`
        : `failed: ${prepared.error}`;
  setCurrentDetails(`Robot ${robotNameOf(delivery)}, ${prepared.format ?? 'body'} delivery: ${what}`);
}
