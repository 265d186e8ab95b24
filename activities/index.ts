/**
 * Every side effect of the workflows: reading bodies, parsing them, storing deliveries and runs,
 * executing steps. Built from their dependencies, as in Temporal's dependency-injection sample.
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
  RunStatus,
  StepDefinition,
  StepResult,
  StepStatus,
} from '../src/domain/types';
import { isDuplicateKeyError, rawCollection, type DeliveryDoc, type Models, type RobotDoc, type RunDoc } from '../src/models';
import { discardBody, readStoredBody } from '../src/stored-bodies';

export interface ActivityDeps {
  models: Models;
}

/** Rows stored per insertMany while fanning a CSV out. */
export const RUN_INSERT_BATCH = 1000;


function preparedFrom(d: Pick<DeliveryDoc, 'outcome' | 'runCount' | 'reason' | 'error' | 'steps'>): PreparedDelivery {
  switch (d.outcome) {
    case 'processed':
      return { outcome: 'processed', runCount: d.runCount ?? 0, stepCount: d.steps.length };
    case 'dropped':
      return { outcome: 'dropped', reason: d.reason ?? '' };
    default:
      return { outcome: 'failed', error: d.error ?? d.reason ?? d.outcome };
  }
}

function bodyBytes(input: DeliveryInput, models: Models): Promise<Buffer> | Buffer {
  const { body } = input;
  switch (body.kind) {
    case 'inline':
      return Buffer.from(body.data, body.encoding);
    case 'stored':
      return readStoredBody(models, input.deliveryId, body.chunks);
    case 'consumed':
      throw ApplicationFailure.nonRetryable('the body of this delivery was already consumed');
  }
}

/** A payment provider trigger with an `events` list drops other event types. */
function droppedEventReason(robot: RobotDoc, data: JsonValue): string | null {
  const events = robot.trigger.events;
  if (robot.trigger.kind !== 'stripe' || !events?.length) return null;
  const type = data !== null && typeof data === 'object' && !Array.isArray(data) ? data.type : undefined;
  return typeof type === 'string' && events.includes(type) ? null : `event type ${JSON.stringify(type ?? null)} is not selected`;
}

export function createActivities({ models }: ActivityDeps) {
  const { App, Delivery, Robot, Run } = models;
  const stepsCache = new Map<string, StepDefinition[]>();

  async function formatOf(robot: RobotDoc): Promise<BodyFormat> {
    if (robot.trigger.kind === 'stripe') return 'json';
    const app = await App.findById(robot.trigger.appId, { bodyFormat: 1 }).lean();
    return (app?.bodyFormat as BodyFormat | undefined) ?? 'json';
  }

  /** Inserts runs; a run already stored by an earlier attempt of this activity is kept as it is. */
  async function insertRuns(runs: RunDoc[]): Promise<void> {
    if (runs.length === 0) return;
    try {
      await rawCollection(Run).insertMany(runs, { ordered: false });
    } catch (err) {
      const writeErrors = (err as { writeErrors?: unknown[] }).writeErrors;
      const all = writeErrors ? writeErrors : [err];
      if (!all.every(isDuplicateKeyError)) throw err;
    }
  }

  async function stepsOf(deliveryId: string): Promise<StepDefinition[]> {
    let steps = stepsCache.get(deliveryId);
    if (!steps) {
      const delivery = await Delivery.findById(deliveryId, { steps: 1 }).lean();
      if (!delivery) throw ApplicationFailure.nonRetryable(`delivery ${deliveryId} not found`);
      steps = delivery.steps as StepDefinition[];
      if (stepsCache.size >= 1000) stepsCache.delete(stepsCache.keys().next().value!);
      stepsCache.set(deliveryId, steps);
    }
    return steps;
  }

  async function settle(deliveryId: string, update: Partial<DeliveryDoc>): Promise<void> {
    await Delivery.updateOne({ _id: deliveryId }, { $set: update });
  }

  return {
    /**
     * Parses the body in the app's format and stores the delivery and one run per trigger data
     * value (one per row for csv). Idempotent: a retry after a crash finds what is stored and
     * continues, runs have deterministic ids, and a settled delivery is answered from the record.
     */
    async prepareDelivery(input: DeliveryInput): Promise<PreparedDelivery> {
      const ctx = Context.current();
      const recorded = await Delivery.findById(input.deliveryId).lean();
      if (recorded && recorded.outcome !== 'processing') return preparedFrom(recorded);

      const robot = await Robot.findById(input.robotId).lean();
      if (!robot) {
        throw ApplicationFailure.nonRetryable(`robot ${input.robotId} no longer exists`, 'RobotNotFound');
      }
      const format = await formatOf(robot);
      const steps = robot.steps as StepDefinition[];
      if (!recorded) {
        await Delivery.create({
          _id: input.deliveryId,
          robotId: input.robotId,
          triggerIdentifier: input.triggerIdentifier,
          workflowId: ctx.info.workflowExecution?.workflowId ?? null,
          dedupKey: input.dedupKey,
          receivedAt: new Date(input.receivedAt),
          format,
          contentType: input.contentType,
          size: input.size,
          outcome: 'processing',
          verified: input.verified,
          steps,
        }).catch((err: unknown) => {
          if (!isDuplicateKeyError(err)) throw err;
        });
      }

      const body = await bodyBytes(input, models);
      const newRun = (index: number, trigger: JsonValue): RunDoc => ({
        _id: runIdFor(input.deliveryId, index),
        robotId: input.robotId,
        deliveryId: input.deliveryId,
        index,
        status: 'running',
        triggerJson: JSON.stringify(trigger),
        steps: [],
        stepCount: steps.length,
        verified: input.verified,
        createdAt: new Date(),
        finishedAt: null,
      });

      let prepared: PreparedDelivery;
      try {
        if (format === 'csv') {
          // First pass checks the whole body, so a bad row half way makes no run at all.
          let runCount = 0;
          for await (const _row of csvRows(body)) runCount++;
          const resumeFrom = (ctx.info.heartbeatDetails as number | undefined) ?? 0;
          let index = 0;
          let batch: RunDoc[] = [];
          for await (const row of csvRows(body)) {
            if (index >= resumeFrom) batch.push(newRun(index, row));
            index++;
            if (batch.length === RUN_INSERT_BATCH) {
              await insertRuns(batch);
              batch = [];
              ctx.heartbeat(index);
            }
          }
          await insertRuns(batch);
          prepared = { outcome: 'processed', runCount, stepCount: steps.length };
        } else {
          const data = parseOne(format, body);
          const dropped = droppedEventReason(robot, data);
          if (dropped) {
            prepared = { outcome: 'dropped', reason: dropped };
          } else {
            await insertRuns([newRun(0, data)]);
            prepared = { outcome: 'processed', runCount: 1, stepCount: steps.length };
          }
        }
      } catch (err) {
        if (!(err instanceof BodyParseError)) throw err;
        prepared = { outcome: 'failed', error: err.message };
      }

      await settle(input.deliveryId, {
        outcome: prepared.outcome,
        runCount: prepared.outcome === 'processed' ? prepared.runCount : 0,
        reason: prepared.outcome === 'dropped' ? prepared.reason : null,
        error: prepared.outcome === 'failed' ? prepared.error : null,
      });
      if (input.body.kind === 'stored') await discardBody(models, input.deliveryId);
      return prepared;
    },

    /** Executes one step of a run and records its output; a retry returns the recorded result. */
    async executeStep(input: { runId: string; deliveryId: string; stepIndex: number }): Promise<StepStatus> {
      const run = await Run.findById(input.runId, { triggerJson: 1, steps: 1 }).lean();
      if (!run) throw ApplicationFailure.nonRetryable(`run ${input.runId} not found`, 'RunNotFound');
      const done = run.steps[input.stepIndex];
      if (done) return done.status as StepStatus;
      const step = (await stepsOf(input.deliveryId))[input.stepIndex];
      if (!step) throw ApplicationFailure.nonRetryable(`run ${input.runId} has no step ${input.stepIndex}`);

      let result: StepResult;
      try {
        const output = resolveTemplate(JSON.parse(step.templateJson) as JsonValue, JSON.parse(run.triggerJson) as JsonValue);
        result = { name: step.name, status: 'succeeded', outputJson: JSON.stringify(output) };
      } catch (err) {
        result = { name: step.name, status: 'failed', error: (err as Error).message };
      }
      // Appends only where no other attempt got there first.
      await Run.updateOne({ _id: input.runId, steps: { $size: input.stepIndex } }, { $push: { steps: result } });
      return result.status;
    },

    async finishRun(input: { runId: string; status: Exclude<RunStatus, 'running'> }): Promise<void> {
      await Run.updateOne({ _id: input.runId }, { $set: { status: input.status, finishedAt: new Date() } });
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
