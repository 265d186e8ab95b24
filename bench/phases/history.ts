/**
 * History reads as the store grows: each read a person makes (the robot with its counts, the first
 * and a later page of its runs, the first page of its deliveries, one run, one delivery) timed at
 * 1,000, 10,000 and 100,000 stored runs of that robot, with as many of another robot, against the
 * same reads with one page of runs stored (the baseline). The store is seeded through the service's
 * own storage code (DeliveryRecorder, insertOnce); the history keeper in the stack's worker builds
 * the history from it, as it does from real runs.
 */
import { newId } from '../../src/domain/secrets';
import { runIdFor } from '../../src/domain/ids';
import { DeliveryRecorder } from '../../src/history/slots';
import { encodeCursor } from '../../src/history/reads';
import { storeRuns } from '../../src/deliveries/store-runs';
import { insertOnce } from '../../src/storage/writes';
import { type Models } from '../../src/storage/models';
import { type RunDoc, type RunOutcomeDoc, type StepResultDoc } from '../../src/storage/documents';
import type { DeliveryInput } from '../../src/domain/types';
import type { RunPreviewDoc } from '../../src/storage/history-documents';
import { percentiles, type Percentiles } from '../load';
import { BLOCK_SIZE } from '../../src/domain/limits';
import type { ApiClient } from '../../src/client/api-client';
import { waitFor } from '../../src/launch/os/wait';
import { robotPageLoads, type PageLoad } from '../page-load';

export const HISTORY_READS = [
  'robot',
  'runsFirstPage',
  'runsLaterPage',
  'deliveriesFirstPage',
  'run',
  'delivery',
] as const;
export type HistoryRead = (typeof HISTORY_READS)[number];

export interface HistoryLevel {
  /** Runs stored for the measured robot, and as many for another robot. */
  runsPerRobot: number;
  seedSeconds: number;
  /** From the end of seeding until the robot's counts showed every run. */
  keeperSeconds: number;
  readsMs: Record<HistoryRead, Percentiles>;
  /** The dashboard's robot page, first load in chromium (null without CHROMIUM_BIN). */
  robotPageMs?: Percentiles | null;
}

export interface HistoryResult {
  samples: number;
  baselineMs: Record<HistoryRead, Percentiles>;
  baselineRobotPageMs?: Percentiles | null;
  levels: HistoryLevel[];
}

interface Ctx {
  api: ApiClient;
  models: Models;
  /** Makes a robot at work with one compose step; returns its id. */
  newRobot: (name: string) => Promise<string>;
  samples: number;
  levels: number[];
  pollS: number;
  log: (message: string) => void;
  /** Where the dashboard is, for its page loads. */
  dashboard: PageLoad;
}

/** First loads of the robot page timed per level. */
const PAGE_LOADS = 10;

/** Bulk deliveries carry this many runs each (one CSV-like delivery per insert batch). */
const BULK_RUNS = 1000;

class Seeder {
  readonly recorder: DeliveryRecorder;
  readonly runIds: string[] = [];
  readonly deliveryIds: string[] = [];
  constructor(
    private readonly models: Models,
    readonly robotId: string,
  ) {
    this.recorder = new DeliveryRecorder(models);
  }
  stored = 0;

  /**
   * One processed delivery of `runCount` runs, each succeeded with one step: the runs and their
   * preview pages stored by the worker's own code (src/deliveries/store-runs.ts), each run's step
   * result and outcome as a run's last step stores them.
   */
  async delivery(runCount: number): Promise<void> {
    const { models, robotId } = this;
    const deliveryId = newId();
    const receivedAt = new Date();
    const rows = Array.from({ length: runCount }, (_, i) => ({ n: i, email: `user${i}@example.com` }));
    const input: DeliveryInput = {
      deliveryId,
      robotId,
      triggerIdentifier: `custom:${robotId}`,
      receivedAt: receivedAt.toISOString(),
      dedupKey: `sha256:${deliveryId}`,
      contentType: 'text/csv',
      size: runCount * 30,
      body: { kind: 'inline', encoding: 'utf8', data: '' },
      verified: null,
    };
    const writes = {
      models,
      runs: (docs: RunDoc[]) => insertOnce(models.Run, docs),
      runPreviews: (docs: RunPreviewDoc[]) => insertOnce(models.RunPreview, docs),
    };
    const stored = await storeRuns(writes, input, rows, { resumed: undefined, beat: () => undefined });
    const runIds = rows.map((_, i) => runIdFor(deliveryId, i));
    const results: StepResultDoc[] = runIds.map((runId, i) => ({
      _id: `${runId}:0`,
      runId,
      index: 0,
      name: 's',
      status: 'succeeded',
      output: { json: JSON.stringify(rows[i]) },
    }));
    await insertOnce(models.StepResult, results);
    await insertOnce(
      models.RunOutcome,
      runIds.map((runId): RunOutcomeDoc => ({ _id: runId, robotId, status: 'succeeded', finishedAt: receivedAt })),
    );
    for (let i = 0; i < runIds.length; i += 1000) this.runIds.push(runIds[i]);
    await this.recorder.record({
      _id: deliveryId,
      robotId,
      triggerIdentifier: `custom:${robotId}`,
      workflowId: null,
      dedupKey: `sha256:${deliveryId}`,
      receivedAt,
      format: 'csv',
      contentType: 'text/csv',
      size: runCount * 30,
      outcome: 'processed',
      runCount,
      reason: null,
      error: null,
      verified: null,
      stepCount: 1,
      previewsJson: stored.previewsJson,
    });
    this.deliveryIds.push(deliveryId);
    this.stored += runCount;
  }

  /** Grows to `target` runs: bulk deliveries, then (with `singles`) that many one-run deliveries last. */
  async growTo(target: number, singles: number): Promise<void> {
    while (this.stored < target - singles) await this.delivery(Math.min(BULK_RUNS, target - singles - this.stored));
    for (let i = 0; i < singles && this.stored < target; i++) await this.delivery(1);
  }
}

async function waitForCounts(ctx: Ctx, robotId: string, runs: number): Promise<void> {
  await waitFor(
    () => ctx.api.call('getRobot', { params: { id: robotId } }),
    (robot) => robot.runCounts?.total === runs && robot.runCounts.succeeded === runs,
    30 * 60_000,
    {
      intervalMs: ctx.pollS * 1000,
      message: (robot) => `the history of robot ${robotId} shows ${JSON.stringify(robot.runCounts)}, not ${runs} runs`,
    },
  );
}

/** Times each read `samples` times, one at a time, after a few unmeasured ones. */
async function measureReads(ctx: Ctx, seeded: Seeder): Promise<Record<HistoryRead, Percentiles>> {
  const { robotId } = seeded;
  const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];
  const { api } = ctx;
  const params = { id: robotId };
  const reads: Record<HistoryRead, () => Promise<unknown>> = {
    robot: () => api.call('getRobot', { params }),
    runsFirstPage: () => api.call('listRuns', { params, query: { limit: 50 } }),
    // A cursor as the API gives it, at a random place in the history.
    runsLaterPage: () => {
      const at = BLOCK_SIZE + Math.floor(Math.random() * Math.max(1, seeded.stored - BLOCK_SIZE));
      return api.call('listRuns', { params, query: { limit: 50, cursor: encodeCursor(at) } });
    },
    deliveriesFirstPage: () => api.call('listDeliveries', { params, query: { limit: 50 } }),
    run: () => api.call('getRun', { params: { id: pick(seeded.runIds) } }),
    delivery: () => api.call('getDelivery', { params: { id: pick(seeded.deliveryIds) } }),
  };
  const out = {} as Record<HistoryRead, Percentiles>;
  for (const read of HISTORY_READS) {
    for (let i = 0; i < 5; i++) await reads[read]();
    const times: number[] = [];
    for (let i = 0; i < ctx.samples; i++) {
      const started = performance.now();
      await reads[read]();
      times.push(performance.now() - started);
    }
    out[read] = percentiles(times);
  }
  return out;
}

export async function historyBench(ctx: Ctx): Promise<HistoryResult> {
  const measured = new Seeder(ctx.models, await ctx.newRobot('bench history'));
  const other = new Seeder(ctx.models, await ctx.newRobot('bench history, another robot'));
  ctx.log(`history: baseline, one page of runs (${BLOCK_SIZE} one-run deliveries) and nothing else`);
  await measured.growTo(BLOCK_SIZE, BLOCK_SIZE);
  await waitForCounts(ctx, measured.robotId, BLOCK_SIZE);
  const baselineMs = await measureReads(ctx, measured);
  const baselineRobotPageMs = await robotPageLoads(ctx.dashboard, measured.robotId, PAGE_LOADS);
  const levels: HistoryLevel[] = [];
  for (const runs of ctx.levels) {
    ctx.log(`history: seeding ${runs} runs for each of two robots`);
    const seeding = Date.now();
    await other.growTo(runs, 0);
    await measured.growTo(runs, BLOCK_SIZE);
    const seeded = Date.now();
    await waitForCounts(ctx, other.robotId, runs);
    await waitForCounts(ctx, measured.robotId, runs);
    const built = Date.now();
    ctx.log(`history: measuring reads at ${runs} runs per robot`);
    levels.push({
      runsPerRobot: runs,
      seedSeconds: (seeded - seeding) / 1000,
      keeperSeconds: (built - seeded) / 1000,
      readsMs: await measureReads(ctx, measured),
      robotPageMs: await robotPageLoads(ctx.dashboard, measured.robotId, PAGE_LOADS),
    });
  }
  return { samples: ctx.samples, baselineMs, baselineRobotPageMs, levels };
}
