/**
 * Every side effect of the workflows: reading bodies, parsing them, storing deliveries and runs,
 * executing steps. Built from their dependencies, as in Temporal's dependency-injection sample.
 *
 * Writes are inserts with deterministic ids (see src/storage/writes.ts), so any activity can be retried
 * after a crash and stores nothing twice; and no activity on a run's path reads a large collection.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { BodyParseError, csvRows, parseOne } from '../src/domain/body-formats';
import { runIdFor } from '../src/domain/ids';
import { resolveTemplate } from '../src/domain/placeholders';
import type {
  BodyFormat,
  DeliveryInput,
  JsonValue,
  PreparedDelivery,
  RunSeed,
  RunOutcomeStatus,
  StepDefinition,
  StepStatus,
  TriggerRef,
} from '../src/domain/types';
import {
  bodyBlobId,
  discardBlob,
  loadJson,
  outputBlobId,
  readBlob,
  storeJson,
  triggerBlobId,
} from '../src/storage/blobs';
import { DeliveryRecorder, type NewDelivery } from '../src/history/slots';
import { previewOf } from '../src/history/tally';
import { previewPageId } from '../src/history/store';
import { groupInserts } from '../src/storage/writes';
import { type Models } from '../src/storage/models';
import { type RobotDoc, type RunDoc, type StepResultDoc } from '../src/storage/documents';
import type { RunPreviewDoc } from '../src/history/documents';
import type { WorkerMetrics } from '../src/metrics';
import {
  BLOCK_SIZE,
  CSV_CURSORS,
  HEARTBEAT_ROWS,
  RUN_INSERT_BATCH,
  SEEDS_MAX_BYTES,
  TRIGGER_INLINE_BYTES,
} from '../src/domain/limits';

export interface ActivityDeps {
  models: Models;
  metrics: WorkerMetrics;
}

/** How long a worker trusts what it read of a robot (its steps, body format and event filter). */
const ROBOT_CACHE_MS = 60_000;

interface RobotSettings {
  robot: RobotDoc;
  format: BodyFormat;
  steps: StepDefinition[];
}

/** Parsed trigger data for runs, in row order. */
type TriggerSource = Iterable<JsonValue> | AsyncIterable<JsonValue>;

/** Reports progress of a regular activity (a local one, for a small body, has no heartbeat). */
function heartbeat(details?: unknown): void {
  const ctx = Context.current();
  if (!ctx.info.isLocal) ctx.heartbeat(details);
}

/** The request body; a stored one is read chunk by chunk, with a heartbeat after each. */
function bodyBytes(input: DeliveryInput, models: Models): Promise<Buffer> | Buffer {
  const { body } = input;
  if (body.kind === 'inline') return Buffer.from(body.data, body.encoding);
  const progress = Context.current().info.heartbeatDetails as unknown;
  return readBlob(models, bodyBlobId(input.deliveryId), body.chunks, () => heartbeat(progress));
}

/** Where the last nextRuns of a delivery left its CSV, so the next batch goes on from there. */
interface CsvCursor {
  rows: AsyncGenerator<Record<string, string>, void, undefined>;
  /** Index of the next row `rows` (or `held`) gives. */
  next: number;
  /** A row read but not used: it did not fit in the last batch. */
  held?: Record<string, string>;
}

/** A payment provider trigger with an `events` list drops other event types. */
function droppedEventReason(robot: RobotDoc, data: JsonValue): string | null {
  const events = robot.trigger.events;
  if (robot.trigger.kind !== 'stripe' || !events?.length) return null;
  const type = data !== null && typeof data === 'object' && !Array.isArray(data) ? data.type : undefined;
  return typeof type === 'string' && events.includes(type)
    ? null
    : `event type ${JSON.stringify(type ?? null)} is not selected`;
}

function seedOf(runId: string, triggerJson: string, data: JsonValue): RunSeed {
  const bytes = Buffer.byteLength(triggerJson);
  return bytes <= TRIGGER_INLINE_BYTES
    ? { runId, trigger: { kind: 'inline', data }, bytes }
    : { runId, trigger: { kind: 'stored' }, bytes: 0 };
}

interface StoredRuns {
  runCount: number;
  firstRuns: RunSeed[];
  /** Trigger previews of the first page of runs, kept on the delivery record. */
  previewsJson: string;
}

/** What preparing decided, with what the delivery record keeps of its runs. */
type Prepared =
  | Exclude<PreparedDelivery, { outcome: 'processed' }>
  | (Extract<PreparedDelivery, { outcome: 'processed' }> & { previewsJson: string });

/** Collects seeds while they fit: at most `max` runs and SEEDS_MAX_BYTES of inline data (always one). */
class SeedBatch {
  readonly seeds: RunSeed[] = [];
  private bytes = 0;
  constructor(private readonly max: number) {}
  offer(seed: RunSeed): boolean {
    if (this.seeds.length >= this.max || (this.seeds.length > 0 && this.bytes + seed.bytes > SEEDS_MAX_BYTES))
      return false;
    this.seeds.push(seed);
    this.bytes += seed.bytes;
    return true;
  }
}

export function createActivities({ models, metrics }: ActivityDeps) {
  const { App, Delivery, Robot, Run, RunOutcome, StepResult } = models;
  // Concurrent activities share their writes: one insertMany per collection at a time.
  const insert = {
    runs: groupInserts(Run),
    deliveries: groupInserts(Delivery),
    stepResults: groupInserts(StepResult),
    runOutcomes: groupInserts(RunOutcome),
    runPreviews: groupInserts<RunPreviewDoc>(models.RunPreview),
  };
  const deliveries = new DeliveryRecorder(models, insert.deliveries);
  const csvCursors = new Map<string, CsvCursor>();
  const robots = new Map<string, RobotSettings & { expires: number }>();
  const storedTriggers = new Map<string, JsonValue>();

  async function recordOutcome(runId: string, robotId: string, status: RunOutcomeStatus): Promise<void> {
    storedTriggers.delete(runId);
    await insert.runOutcomes([{ _id: runId, robotId, status, finishedAt: new Date() }]);
    metrics.runs.inc({ status });
  }

  async function robotSettings(robotId: string): Promise<RobotSettings> {
    const hit = robots.get(robotId);
    if (hit && hit.expires > Date.now()) return hit;
    const robot = await Robot.findById(robotId).lean();
    if (!robot) throw ApplicationFailure.nonRetryable(`robot ${robotId} no longer exists`, 'RobotNotFound');
    let format: BodyFormat = 'json';
    if (robot.trigger.kind === 'custom') {
      const app = await App.findById(robot.trigger.appId, { bodyFormat: 1 }).lean();
      format = app?.bodyFormat ?? 'json';
    }
    const settings = { robot, format, steps: robot.steps as StepDefinition[], expires: Date.now() + ROBOT_CACHE_MS };
    if (robots.size >= 1000) robots.delete(robots.keys().next().value!);
    robots.set(robotId, settings);
    return settings;
  }

  /** The trigger data of a run whose data was too large to travel inline (kept for its next steps). */
  async function triggerOf(runId: string, ref: TriggerRef): Promise<JsonValue> {
    if (ref.kind === 'inline') return ref.data;
    let data = storedTriggers.get(runId);
    if (data === undefined) {
      const run = await Run.findById(runId, { trigger: 1 }).lean();
      if (!run) throw ApplicationFailure.nonRetryable(`run ${runId} not found`, 'RunNotFound');
      data = JSON.parse(await loadJson(models, triggerBlobId(runId), run.trigger)) as JsonValue;
      if (storedTriggers.size >= 16) storedTriggers.delete(storedTriggers.keys().next().value!);
      storedTriggers.set(runId, data);
    }
    return data;
  }

  /**
   * Stores one run per trigger data value, in batches, and returns the seeds of the first ones.
   * A retried attempt skips the batches its predecessor reported by heartbeat.
   */
  /**
   * Stores one run per trigger data value, in batches, with the trigger previews the run history
   * lists (the first page's go on the delivery record), and returns the seeds of the first runs.
   * A retried attempt skips the batches its predecessor reported by heartbeat.
   */
  async function storeRuns(input: DeliveryInput, triggers: TriggerSource): Promise<StoredRuns> {
    const ctx = Context.current();
    const resumeFrom = (ctx.info.heartbeatDetails as number | undefined) ?? 0;
    const first = new SeedBatch(RUN_INSERT_BATCH);
    // A run was created when its delivery was received: the same time on every attempt.
    const createdAt = new Date(input.receivedAt);
    let batch: RunDoc[] = [];
    let previews: RunPreviewDoc[] = [];
    let page: Array<string | null> = [];
    let firstPage: Array<string | null> = [];
    let index = 0;
    for await (const data of triggers) {
      const runId = runIdFor(input.deliveryId, index);
      const triggerJson = JSON.stringify(data);
      if (index >= resumeFrom) {
        const trigger = await storeJson(models, triggerBlobId(runId), triggerJson);
        batch.push({
          _id: runId,
          robotId: input.robotId,
          deliveryId: input.deliveryId,
          index,
          trigger,
          verified: input.verified,
          createdAt,
        });
      }
      page.push(previewOf(triggerJson));
      if (first.seeds.length === index) first.offer(seedOf(runId, triggerJson, data));
      index++;
      if (index % BLOCK_SIZE === 0) {
        const n = index / BLOCK_SIZE - 1;
        if (n === 0) firstPage = page;
        else if (index > resumeFrom)
          previews.push({ _id: previewPageId(input.deliveryId, n), previewsJson: JSON.stringify(page) });
        page = [];
      }
      if (batch.length === RUN_INSERT_BATCH) {
        await Promise.all([insert.runs(batch), insert.runPreviews(previews)]);
        [batch, previews] = [[], []];
        if (!ctx.info.isLocal) ctx.heartbeat(index); // a local activity (small body) has no heartbeat
      }
    }
    if (page.length > 0) {
      const n = Math.floor((index - 1) / BLOCK_SIZE);
      if (n === 0) firstPage = page;
      else previews.push({ _id: previewPageId(input.deliveryId, n), previewsJson: JSON.stringify(page) });
    }
    await Promise.all([insert.runs(batch), insert.runPreviews(previews)]);
    return { runCount: index, firstRuns: first.seeds, previewsJson: JSON.stringify(firstPage) };
  }

  /** What the body makes: runs of one trigger data value, or (csv) one per row; or dropped. */
  async function decide(input: DeliveryInput, settings: RobotSettings, body: Buffer): Promise<Prepared> {
    if (settings.format === 'csv') {
      // A first pass reads the whole body, so a bad row half way makes no run at all.
      const progress = Context.current().info.heartbeatDetails as unknown;
      let rows = 0;
      for await (const _row of csvRows(body)) if (++rows % HEARTBEAT_ROWS === 0) heartbeat(progress);
      const stored = await storeRuns(input, csvRows(body));
      metrics.csvRows.inc(stored.runCount);
      return { outcome: 'processed', stepCount: settings.steps.length, ...stored };
    }
    const data = parseOne(settings.format, body);
    const dropped = droppedEventReason(settings.robot, data);
    if (dropped) return { outcome: 'dropped', reason: dropped };
    return { outcome: 'processed', stepCount: settings.steps.length, ...(await storeRuns(input, [data])) };
  }

  return {
    /**
     * Parses the body in the robot's body format (never by Content-Type), stores one run per
     * trigger data value and then the delivery with its outcome. A body that does not parse
     * makes no run and is recorded as failed, with the parser's error.
     */
    async prepareDelivery(input: DeliveryInput): Promise<PreparedDelivery> {
      const settings = await robotSettings(input.robotId);
      const body = await bodyBytes(input, models);
      let prepared: Prepared;
      try {
        prepared = await decide(input, settings, body);
      } catch (err) {
        if (!(err instanceof BodyParseError)) throw err;
        prepared = { outcome: 'failed', error: err.message };
      }
      const delivery: NewDelivery = {
        _id: input.deliveryId,
        robotId: input.robotId,
        triggerIdentifier: input.triggerIdentifier,
        workflowId: Context.current().info.workflowExecution?.workflowId ?? null,
        dedupKey: input.dedupKey,
        receivedAt: new Date(input.receivedAt),
        format: settings.format,
        contentType: input.contentType,
        size: input.size,
        outcome: prepared.outcome,
        runCount: prepared.outcome === 'processed' ? prepared.runCount : 0,
        reason: prepared.outcome === 'dropped' ? prepared.reason : null,
        error: prepared.outcome === 'failed' ? prepared.error : null,
        verified: input.verified,
        stepCount: settings.steps.length,
        previewsJson: prepared.outcome === 'processed' ? prepared.previewsJson : '[]',
      };
      await deliveries.record(delivery, { retry: Context.current().info.attempt > 1 });
      metrics.deliveriesPrepared.inc({ outcome: prepared.outcome });
      if (prepared.outcome !== 'processed') return { ...prepared, format: settings.format };
      const { previewsJson: _previews, ...result } = prepared;
      return { ...result, format: settings.format };
    },

    /**
     * The seeds of runs `from` up to `to` of a csv delivery (fewer when their data is large). The
     * CSV is read on from where the delivery's last batch left it, when this worker holds that
     * place (CSV_CURSORS of them); else from its start.
     */
    async nextRuns({ delivery, from, to }: { delivery: DeliveryInput; from: number; to: number }): Promise<RunSeed[]> {
      let cursor = csvCursors.get(delivery.deliveryId);
      if (!cursor || cursor.next > from) cursor = { rows: csvRows(await bodyBytes(delivery, models)), next: 0 };
      csvCursors.delete(delivery.deliveryId); // re-inserted last: the map keeps the newest last
      const batch = new SeedBatch(to - from);
      for (;;) {
        const row = cursor.held ?? (await cursor.rows.next()).value;
        cursor.held = undefined;
        if (!row) break;
        if (
          cursor.next >= from &&
          !batch.offer(seedOf(runIdFor(delivery.deliveryId, cursor.next), JSON.stringify(row), row))
        ) {
          cursor.held = row;
          break;
        }
        cursor.next++;
        if (cursor.next % HEARTBEAT_ROWS === 0) heartbeat();
      }
      csvCursors.set(delivery.deliveryId, cursor);
      if (csvCursors.size > CSV_CURSORS) csvCursors.delete(csvCursors.keys().next().value!);
      return batch.seeds;
    },

    /** Removes a large body once every run of its delivery has started. */
    async discardBody({ deliveryId, chunks }: { deliveryId: string; chunks: number }): Promise<void> {
      csvCursors.delete(deliveryId);
      await discardBlob(models, bodyBlobId(deliveryId), chunks);
    },

    /**
     * Executes one step of a run and stores its result; a retry keeps the first stored result.
     * When the run ends with this step (`endsRun`, or the step failed), it records the run's
     * outcome as well.
     */
    async executeStep(input: {
      runId: string;
      robotId: string;
      stepIndex: number;
      trigger: TriggerRef;
      endsRun: boolean;
    }): Promise<StepStatus> {
      const step = (await robotSettings(input.robotId)).steps[input.stepIndex];
      if (!step)
        throw ApplicationFailure.nonRetryable(`robot ${input.robotId} has no step ${input.stepIndex}`, 'StepNotFound');
      const trigger = await triggerOf(input.runId, input.trigger);
      const result: StepResultDoc = {
        _id: `${input.runId}:${input.stepIndex}`,
        runId: input.runId,
        index: input.stepIndex,
        name: step.name,
        status: 'succeeded',
      };
      let outputJson: string | undefined;
      try {
        outputJson = JSON.stringify(resolveTemplate(JSON.parse(step.templateJson) as JsonValue, trigger));
      } catch (err) {
        Object.assign(result, { status: 'failed', error: (err as Error).message });
      }
      // Outside the try: a database error is retried, it does not fail the step.
      if (outputJson !== undefined)
        result.output = await storeJson(models, outputBlobId(input.runId, input.stepIndex), outputJson);
      await insert.stepResults([result]);
      if (input.endsRun || result.status === 'failed')
        await recordOutcome(input.runId, input.robotId, result.status === 'failed' ? 'failed' : 'succeeded');
      return result.status;
    },

    /** Records how a run without steps ended. */
    async finishRun(input: { runId: string; robotId: string; status: RunOutcomeStatus }): Promise<void> {
      await recordOutcome(input.runId, input.robotId, input.status);
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
