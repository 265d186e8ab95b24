/**
 * Preparing a delivery (the rules: src/domain/deliveries.ts): parse the body in the body format
 * the app had when the delivery was accepted (never by Content-Type), store one run per trigger
 * data value (csv: per row), keep the raw body for replay, then record the delivery with its
 * outcome and the steps version its runs execute. A body that does not parse makes no run and is
 * recorded as failed, and counted in its robot's issue (src/domain/issues.ts; a test delivery not).
 */
import { eventTypeStop, deliveryRecord, type DeliveryVerdict } from '../domain/deliveries';
import { BodyParseError, csvRows } from '../domain/body-formats';
import { parseBody } from '../domain/body-reading';
import { senderTriggerData } from '../domain/senders/checks';
import { DeliveryOverCap, MatchChars, TriggerBytes, UNCAPPED, type DeliveryCaps } from '../domain/delivery-caps';
import { HEARTBEAT_ROWS } from '../domain/limits';
import { FieldCollector } from '../domain/fields';
import { eventName } from '../domain/inspection';
import { MatchPacer } from '../domain/trigger-rules';
import { admitted, admittedCount, StoppedRows, type DeliveryRules } from './rules';
import {
  BODY_NOT_KEPT,
  OVER_CAP,
  UNPARSABLE_BODY,
  type DeliveryFailure,
  type DeliveryInput,
  type PreparedDelivery,
  type RunFeatures,
  type RunSeed,
} from '../domain/types';
import { BlobMissing } from '../storage/blobs';
import { failedReason } from '../domain/issues';
import { DEFAULT_WORKSPACE } from '../domain/workspaces';
import type { DeliveryRecorder } from '../history/slots';
import type { WorkerMetrics } from '../core/metrics';
import type { RobotSettings, RobotSettingsCache } from '../robots/settings';
import type { StepsVersions } from '../robots/steps-versions';
import { bodyBytes, keepBody } from './body';
import type { FanOutQuota } from './fanout-quota';
import { PreparationGaveUp, type PreparationLane } from './preparation-lane';
import type { Progress } from './progress';
import { storeRuns, storedSoFar, type RunWrites, type StoredRuns } from './store-runs';

/** Where the delivery runs: its workflow, and whether this is a retried attempt. */
interface PreparationContext {
  progress: Progress;
  workflowId: string | null;
  retry: boolean;
  /** The worker's lane for stored bodies (PREPARING_BODY_BYTES and the rest); none: prepared at once. */
  lane?: Pick<PreparationLane, 'prepare'>;
}

export class DeliveryPreparer {
  constructor(
    private readonly writes: RunWrites,
    private readonly robots: RobotSettingsCache,
    private readonly versions: StepsVersions,
    private readonly deliveries: DeliveryRecorder,
    private readonly metrics: WorkerMetrics,
    private readonly caps: DeliveryCaps,
    private readonly features: RunFeatures,
    private readonly rules: DeliveryRules,
    private readonly quota: FanOutQuota,
  ) {}

  /** FIELDS_SEEN: the paths a delivery's trigger data carried are kept with it (src/domain/fields.ts). */
  private get collectFields(): boolean {
    return this.features.fieldsSeen !== false;
  }

  async prepare(input: DeliveryInput, at: PreparationContext): Promise<PreparedDelivery> {
    const current = await this.robots.get(input.robotId);
    // Deliveries accepted before 0.4 carry neither: they take the robot's current settings.
    const settings: RobotSettings = {
      robot: current.robot,
      format: input.format ?? current.format,
      // Deliveries accepted before 0.8 carry none: a form body is read as one only since then.
      formEnvelope: input.format === undefined ? current.formEnvelope : input.formEnvelope === true,
      sender: current.sender,
      steps:
        input.stepsVersion === undefined ? current.steps : await this.versions.get(input.robotId, input.stepsVersion),
    };
    const { format, steps } = settings;
    const failed = (failure: DeliveryFailure, err: Error): Decided => ({
      verdict: { outcome: 'failed', format, stepCount: steps.length, error: err.message, failure },
    });
    let body = null as Buffer | null;
    let decided: Decided;
    const read = async (): Promise<Decided> => {
      body = await bodyBytes(input, this.writes.models, at.progress);
      return this.decide(input, settings, body, at.progress);
    };
    try {
      decided = at.lane ? await at.lane.prepare(input, at.progress, read) : await read();
    } catch (err) {
      if (err instanceof BodyParseError) decided = failed(UNPARSABLE_BODY, err);
      else if (err instanceof DeliveryOverCap || err instanceof PreparationGaveUp) decided = failed(OVER_CAP, err);
      else if (err instanceof BlobMissing)
        decided = failed(BODY_NOT_KEPT, new Error("the delivery's body is no longer kept"));
      else throw err;
    }
    const { verdict, firstRuns = [] } = decided;
    const received = {
      ...input,
      // The sender's event name: a header's, else the parsed body's (src/domain/inspection.ts).
      event: decided.event ?? (input.request && eventName(input.request.headers)),
      receivedAt: new Date(input.receivedAt),
      workflowId: at.workflowId,
      body:
        body && this.features.keepBodies
          ? await keepBody(input, body, this.writes.models, this.writes.blobChunks)
          : null,
    };
    const issue =
      verdict.outcome === 'failed' && !input.test
        ? {
            workspaceId: input.workspaceId ?? DEFAULT_WORKSPACE,
            kind: 'failed' as const,
            reason: failedReason(verdict.failure, verdict.error),
          }
        : undefined;
    await this.deliveries.record(deliveryRecord(received, verdict), { retry: at.retry, issue });
    this.metrics.deliveriesPrepared.inc({ outcome: verdict.outcome });
    // Only when one is off: the result of the default worker stays as it was before 0.5.
    const someOff = Object.values(this.features).includes(false);
    return { ...answerOf(verdict, firstRuns), format, ...(someOff ? { features: this.features } : {}) };
  }

  /**
   * What the body makes: runs of one trigger data value, or (csv) one per row the trigger rules let
   * through; or filtered. The fields are those of what was parsed, stopped or not.
   */
  private async decide(
    input: DeliveryInput,
    { robot, format, formEnvelope, sender, steps }: RobotSettings,
    body: Buffer,
    progress: Progress,
  ): Promise<Decided> {
    const stepCount = steps.length;
    const caps = this.caps;
    const fields = this.collectFields ? new FieldCollector() : null;
    const rules = await this.rules.of(input);
    const headers = input.headers ?? {};
    const stopped = new StoppedRows();
    const seen = () => (fields ? { fieldsJson: JSON.stringify(fields.result()) } : {});
    let stored: StoredRuns;
    let event: string | undefined;
    if (format === 'csv') {
      // A first pass reads the whole body against the caps, so a bad row or a cap half way makes no
      // run at all. A retry that finds runs being stored (its heartbeat) knows the pass was made.
      if (storedSoFar(progress.resumed) === undefined) {
        const bytes = new TriggerBytes(caps.MAX_TRIGGER_BYTES);
        const matchChars = new MatchChars(caps.RULE_MATCH_CHARS_PER_DELIVERY);
        let rows = 0;
        for await (const row of csvRows(body, caps)) {
          bytes.add(Buffer.byteLength(JSON.stringify(row)));
          if (rules) matchChars.add(rules.matchChars({ trigger: row, headers }));
          if (++rows % HEARTBEAT_ROWS === 0) progress.beat(progress.resumed);
        }
        // Within every cap: the rows the rules let through count against its URL's and its workspace's hour
        // (FANOUT_ROWS_PER_HOUR and its _PER_WORKSPACE), before any run is stored; rows they stop are not charged.
        const beat = () => progress.beat(progress.resumed);
        await this.quota.charge(
          input,
          rules ? await admittedCount(csvRows(body, caps), { rules, headers, beat }) : rows,
        );
      }
      // Beats while rows are only read and stopped repeat the last details storing reported.
      const tracked = trackedProgress(progress);
      const rows = admitted(csvRows(body, UNCAPPED), { rules, headers, fields, stopped, beat: () => tracked.beat() });
      stored = await storeRuns(this.writes, input, rows, tracked);
      this.metrics.csvRows.inc(stored.runCount);
      if (stored.runCount === 0 && stopped.first !== null) {
        const reason = `every row (${stopped.count}) stopped; the first by ${stopped.first}`;
        return { verdict: { outcome: 'filtered', format, stepCount, reason, filteredRows: stopped.count, ...seen() } };
      }
    } else {
      const reading = { contentType: input.contentType, formEnvelope, maxItems: caps.MAX_TRIGGER_ITEMS };
      const parsed = await parseBody(format, body, reading);
      const data = senderTriggerData(sender, parsed);
      new TriggerBytes(caps.MAX_TRIGGER_BYTES).add(Buffer.byteLength(JSON.stringify(data)));
      fields?.add(data);
      if (rules) new MatchChars(caps.RULE_MATCH_CHARS_PER_DELIVERY).add(rules.matchChars({ trigger: data, headers }));
      const pacer = new MatchPacer(() => progress.beat(progress.resumed));
      const reason =
        (await eventTypeStop(robot.trigger, data)) ??
        (rules ? await rules.stopReason({ trigger: data, headers }, pacer) : null);
      event = input.request && eventName(input.request.headers, data);
      if (reason !== null) return { verdict: { outcome: 'filtered', format, stepCount, reason, ...seen() }, event };
      stored = await storeRuns(this.writes, input, [data], progress);
    }
    const { runCount, previewsJson, firstRuns } = stored;
    const filteredRows = stopped.count > 0 ? { filteredRows: stopped.count } : {};
    return {
      verdict: { outcome: 'processed', format, stepCount, runCount, previewsJson, ...filteredRows, ...seen() },
      firstRuns,
      event,
    };
  }
}

/** What preparing decided: the delivery's verdict, and the first runs to start when it made runs. */
interface Decided {
  verdict: Exclude<DeliveryVerdict, { outcome: 'rejected' | 'handshake' | 'duplicate' }>;
  firstRuns?: RunSeed[];
  /** The sender's event name read from the parsed body (a header's when it has one). */
  event?: string;
}

/** The delivery workflow's view of a verdict (without the body format, added by the caller). */
function answerOf(verdict: Decided['verdict'], firstRuns: RunSeed[]): PreparedDelivery {
  switch (verdict.outcome) {
    case 'processed':
      return { outcome: 'processed', stepCount: verdict.stepCount, runCount: verdict.runCount, firstRuns };
    case 'dropped':
    case 'filtered':
      return { outcome: verdict.outcome, reason: verdict.reason };
    case 'failed':
      return { outcome: 'failed', error: verdict.error, failure: verdict.failure };
  }
}

/** Progress whose beat without details repeats the last details given (or the resumed ones). */
function trackedProgress(progress: Progress): Progress {
  let last = progress.resumed;
  return {
    resumed: progress.resumed,
    beat(details?: unknown) {
      if (details !== undefined) last = details;
      progress.beat(last);
    },
  };
}
