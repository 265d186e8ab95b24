/**
 * Where a delivery's cost goes (issue 44), on the quiet stack before any load: BENCH_PROFILE json
 * deliveries that each make one run, sent one after another, then one CSV of as many rows. For
 * each, per delivery (per row): every process's CPU, the Temporal server's own counts of its
 * persistence and visibility requests (its /metrics), and the history of one of them (events by
 * kind, workflow and activity tasks, local activities, bytes); for the CSV, one row's child run too.
 */
import { temporal as proto } from '@temporalio/proto';
import type { Client } from '@temporalio/client';
import { runWorkflowId } from '../../src/domain/ids';
import { waitFor } from '../../src/launch/os/wait';
import { benchRobot, type BenchContext } from '../context';
import { cpuMsPer, stackCpuSeconds, type StackRole } from '../processes';
import { log, round } from '../util';

/** One workflow's history: what the engine stored and handed out for it. */
export interface HistoryProfile {
  workflowId: string;
  events: number;
  /** Events by type (markers by their name: `MARKER_RECORDED core_local_activity`). */
  byKind: Record<string, number>;
  workflowTasks: number;
  activityTasks: number;
  localActivities: number;
  /** The history as stored (protobuf bytes), and the payloads in it. */
  bytes: number;
  payloadBytes: number;
  /** Each failed workflow task's cause and message (a task retried: the engine's work done twice). */
  failedTasks: string[];
}

export interface DeliveryProfile {
  what: string;
  /** Deliveries (json) or rows (csv) the figures below are divided by. */
  units: number;
  seconds: number;
  cpuMsPer: Record<StackRole, number>;
  /** The Temporal server's persistence requests per unit, by operation (those of at least 0.05 per unit). */
  persistence: Record<string, number>;
  /** Its visibility store's requests per unit, by operation. */
  visibility: Record<string, number>;
  history: HistoryProfile;
  /** The CSV: one row's child run. */
  child?: HistoryProfile;
}

export interface ProfileResult {
  json: DeliveryProfile;
  csv: DeliveryProfile;
}

/** A Prometheus counter's values by its `operation` label, summed over the other labels. */
async function countersByOperation(metricsUrl: string, metric: string): Promise<Map<string, number>> {
  const text = await (await fetch(metricsUrl)).text();
  const byOperation = new Map<string, number>();
  const line = new RegExp(`^${metric}\\{([^}]*)\\} (\\S+)$`, 'gm');
  for (const [, labels, value] of text.matchAll(line)) {
    const operation = /operation="([^"]*)"/.exec(labels)?.[1] ?? '';
    byOperation.set(operation, (byOperation.get(operation) ?? 0) + Number(value));
  }
  return byOperation;
}

/** The server's counts now, to subtract: persistence and visibility requests by operation. */
async function serverCounts(metricsUrl: string) {
  return {
    persistence: await countersByOperation(metricsUrl, 'persistence_requests'),
    visibility: await countersByOperation(metricsUrl, 'visibility_persistence_requests'),
  };
}

function perUnit(before: Map<string, number>, after: Map<string, number>, units: number): Record<string, number> {
  const rows = [...after].map(([op, n]) => [op, round((n - (before.get(op) ?? 0)) / units, 2)] as const);
  return Object.fromEntries(rows.filter(([, n]) => n >= 0.05).sort((a, b) => b[1] - a[1]));
}

/** Every payload's data bytes anywhere in an event (inputs, results, markers, memo, search attributes). */
function payloadBytes(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  if (value instanceof Uint8Array) return 0;
  const o = value as Record<string, unknown>;
  if (o.data instanceof Uint8Array && 'metadata' in o) return o.data.length;
  return Object.values(o).reduce<number>((sum, v) => sum + payloadBytes(v), 0);
}

export async function historyProfile(temporal: Client, workflowId: string): Promise<HistoryProfile> {
  const history = await temporal.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  const byKind: Record<string, number> = {};
  for (const e of events) {
    const type = proto.api.enums.v1.EventType[e.eventType ?? 0].replace(/^EVENT_TYPE_/, '');
    const kind = e.markerRecordedEventAttributes ? `${type} ${e.markerRecordedEventAttributes.markerName}` : type;
    byKind[kind] = (byKind[kind] ?? 0) + 1;
  }
  return {
    workflowId,
    events: events.length,
    byKind,
    workflowTasks: byKind.WORKFLOW_TASK_COMPLETED ?? 0,
    activityTasks: byKind.ACTIVITY_TASK_SCHEDULED ?? 0,
    localActivities: byKind['MARKER_RECORDED core_local_activity'] ?? 0,
    bytes: proto.api.history.v1.History.encode(history).finish().length,
    payloadBytes: events.reduce((sum, e) => sum + payloadBytes(e), 0),
    failedTasks: events.flatMap((e) => {
      const failed = e.workflowTaskFailedEventAttributes;
      if (!failed) return [];
      const cause = proto.api.enums.v1.WorkflowTaskFailedCause[failed.cause ?? 0];
      return [`${cause}: ${failed.failure?.message ?? ''}`.slice(0, 300)];
    }),
  };
}

/** Runs `send`, waits for `units` outcomes of the robot, and measures what it cost in between. */
async function measured(
  ctx: BenchContext,
  what: string,
  robotId: string,
  units: number,
  send: () => Promise<void>,
): Promise<Omit<DeliveryProfile, 'history' | 'child'>> {
  const { models, stack, s } = ctx;
  const [cpuBefore, serverBefore] = [stackCpuSeconds(stack.pid), await serverCounts(stack.temporalMetricsUrl)];
  const startedAt = Date.now();
  await send();
  await waitFor(
    () => models.RunOutcome.countDocuments({ robotId }),
    (done) => done >= units,
    600_000,
    { intervalMs: 250, message: (done) => `profile (${what}): only ${done} of ${units} runs finished in 600 s` },
  );
  const seconds = (Date.now() - startedAt) / 1000;
  // The history keeper's look after the last run, and the server's visibility writes, are part of the cost.
  await new Promise((resolve) => setTimeout(resolve, s.pollS * 1000));
  const serverAfter = await serverCounts(stack.temporalMetricsUrl);
  return {
    what,
    units,
    seconds: round(seconds, 1),
    cpuMsPer: cpuMsPer(cpuBefore, stackCpuSeconds(stack.pid), units),
    persistence: perUnit(serverBefore.persistence, serverAfter.persistence, units),
    visibility: perUnit(serverBefore.visibility, serverAfter.visibility, units),
  };
}

export async function profile(ctx: BenchContext, units: number): Promise<ProfileResult> {
  const { api, models, stack, temporal } = ctx;
  log(`profile: ${units} json deliveries one after another, then a CSV of ${units} rows`);
  const json = await benchRobot(api, stack.origin, 'bench profile json', 'json', { n: '{{trigger.n}}' });
  const jsonCosts = await measured(ctx, 'json delivery, one run', json.robotId, units, async () => {
    for (let n = 0; n < units; n++) {
      const res = await stack.fetch(json.url, {
        method: 'POST',
        body: JSON.stringify({ n, profile: true }),
        headers: { 'content-type': 'application/json' },
      });
      if (res.status !== 200) throw new Error(`a profile delivery answered ${res.status}`);
    }
  });
  const oneJson = await models.Delivery.findOne({ robotId: json.robotId }).lean();
  const csv = await benchRobot(api, stack.origin, 'bench profile csv', 'csv', { to: '{{trigger.email}}' });
  const body = ['n,email', ...Array.from({ length: units }, (_, i) => `${i},user${i}@example.com`)].join('\n');
  const csvCosts = await measured(ctx, 'csv row (a child run each)', csv.robotId, units, async () => {
    const res = await stack.fetch(csv.url, { method: 'POST', body, headers: { 'content-type': 'text/csv' } });
    if (res.status !== 200) throw new Error(`the profile CSV was answered ${res.status}`);
  });
  const csvDelivery = await models.Delivery.findOne({ robotId: csv.robotId }).lean();
  const oneRun = await models.Run.findOne({ robotId: csv.robotId }).lean();
  if (!oneJson?.workflowId || !csvDelivery?.workflowId || !oneRun) throw new Error('profile: no delivery recorded');
  return {
    json: { ...jsonCosts, history: await historyProfile(temporal, oneJson.workflowId) },
    csv: {
      ...csvCosts,
      history: await historyProfile(temporal, csvDelivery.workflowId),
      child: await historyProfile(temporal, runWorkflowId(oneRun._id)),
    },
  };
}
