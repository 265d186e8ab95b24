/**
 * The bench's settings, read from the environment, and the facts of the machine it ran on.
 *
 *   BENCH_CONCURRENCY      levels, comma-separated, 0 to skip them (default 1,16,64)
 *   BENCH_DURATION_S       seconds of load per level and kind (default 10)
 *   BENCH_LEVEL_ROUNDS     turns each load of a level (starts, paused acks, baselines) is measured in (default 2)
 *   BENCH_CSV_ROWS         rows of the CSV, 0 to skip it      (default 100000)
 *   BENCH_FANOUT_BASELINE  children of the fan-out baseline, 0 to skip it (default 10000)
 *   BENCH_CSV_TIMEOUT_S    deadline for the CSV's runs        (default 3600)
 *   BENCH_DRAIN_TIMEOUT_S  deadline for a level's runs        (default 600)
 *   BENCH_POLL_S           seconds between database polls     (default 1)
 *   BENCH_LOG_LEVEL        LOG_LEVEL of the stack             (default warn)
 *   BENCH_HISTORY_LEVELS   runs per robot at which history reads are timed, 0 to skip
 *                          (default 1000,10000,100000)
 *   BENCH_HISTORY_SAMPLES  timed requests per read and level  (default 200)
 *   BENCH_CSV_WATCHED      1: the CSV also runs (first) while a client polls the robot every 250 ms (default 1)
 *   BENCH_CSV_PAGE         1: the CSV also runs (first) with the dashboard's robot page open in chromium
 *                          (default 1; left out without CHROMIUM_BIN)
 *   BENCH_CSV_NO_KEEPER    1: first the same CSV on a stack whose worker runs no history keeper (default 1)
 *   BENCH_CSV_WARMUP       rows of an unmeasured CSV run on each stack before its first measured one
 *                          (default 2000)
 *   BENCH_CLUSTER          1: the same levels again on the cluster (npm run start:cluster), after the
 *                          embedded stack is stopped, beside the dev server's figures (default 1)
 *   BENCH_HOSTILE          connections of the ordinary senders of the hostile phase, 0 to skip it (default 16)
 *   BENCH_HOSTILE_CSV_ROWS rows of its worst allowed CSV: the stack's CSV_MAX_ROWS is set to it (default 100000)
 *   BENCH_ABLATION_ROWS    rows on each side of the ablation's comparison of today's code, every feature
 *                          on, with the baseline commit, the two stacks side by side; 0 to skip the
 *                          ablation (default 10000)
 *   BENCH_ABLATION_ROUNDS  rounds in which the two stacks of each comparison take turns with a CSV of
 *                          rows ÷ rounds, the order alternating (default 4)
 *   BENCH_ABLATION_KIND    csv (default): the turns are CSVs of rows; json: json deliveries that make one run
 *                          each, from 16 senders (a change to a delivery's own path, which CSV rows do not take)
 *   BENCH_ABLATION_FEATURE_ROWS rows on each side of each feature's comparison (every feature on, and the
 *                          feature off, taking turns the same way; default BENCH_ABLATION_ROWS ÷ rounds)
 *   BENCH_ABLATION_FEATURES which features the ablation turns off, comma-separated (default all:
 *                          history,metrics,searchAttributes,summaries,keptBodies,encryption,fieldsSeen, then every:
 *                          all of them off at once; '' for none)
 *   BENCH_BASELINE_COMMIT  the earlier commit of the ablation, '' for none (default 756a1f1: before the run history)
 *   BENCH_SENDER_CHECKS    0 to skip timing the senders' checks against that commit (default 1)
 *   BENCH_INSPECTOR        0 to skip timing the delivery inspector on a 32 MiB body (default 1)
 *   BENCH_RECEIVER_AB      a commit whose receiver takes turns with today's on one stack, worker paused, at
 *                          each level (bench/phases/receiver-ab.ts; default '': skipped)
 *   BENCH_RECEIVER_AB_ROUNDS rounds of that at each level (default 4)
 *   BENCH_TRIGGER_CACHE    connections at which two receivers of today's build, one with the trigger cache's
 *                          shared read and one without (TRIGGER_CACHE_COALESCE=0), take turns on one stack of
 *                          their own, worker paused: their ack p99 (bench/phases/trigger-cache.ts; default 64,
 *                          0 skips it)
 *   BENCH_TRIGGER_CACHE_ROUNDS rounds of BENCH_DURATION_S on each of them (default 4)
 *   BENCH_TRIGGER_CACHE_ROBOTS other robots in that stack's store (default 1000: at 10,000 the receiver
 *                          without the shared read stalled FerretDB, 0 acks in every turn, and the other with it)
 *   BENCH_FLOOR_DELIVERIES json deliveries of one run each, on the main stack after the levels, in turns with as
 *                          many do-nothing delivery workflows (start, one local activity, complete;
 *                          bench/phases/delivery-floor.ts), BENCH_LEVEL_ROUNDS rounds (default 2000, 0 skips it)
 *   BENCH_DELIVERY_CPU     one-run json deliveries on each side at each of BENCH_DELIVERY_CPU_LEVELS senders: today's
 *                          stack and BENCH_BASELINE_COMMIT's taking turns, each process's CPU per delivery, beside
 *                          the do-nothing delivery workflow's (bench/phases/delivery-cpu.ts; default 1200, 0 skips)
 *   BENCH_DELIVERY_CPU_LEVELS senders of that, comma-separated (default 1,16,64)
 *   BENCH_N8N              1: the same levels against n8n (scripts/n8n.sh installs it and sets N8N_BIN), after
 *                          the embedded stack is stopped, beside our acks (default 1; left out without N8N_BIN)
 *   BENCH_IDLE_ROBOTS      counts of idle robots, ascending, comma-separated: each process's CPU a second with
 *                          that many robots put to work and nothing sent, on a stack of its own
 *                          (bench/phases/idle-robots.ts; default 0,40,160; '' to skip)
 *   BENCH_IDLE_WINDOW_S    seconds of each of those windows (default 60, the keeper's QUIET_TICK_MS: a quiet
 *                          robot is looked at once in each)
 *   BENCH_IDLE_BASELINE_COMMIT a commit whose idle robots are measured the same way after today's, for a
 *                          change to what an idle robot costs (default '': skipped)
 *   BENCH_PROFILE          json deliveries (one after another), then CSV rows, profiled on the quiet stack
 *                          before any load: each process's CPU, the Temporal server's requests and one
 *                          history, per delivery and per row (bench/phases/profile.ts; default 200, 0 skips)
 *   BENCH_WORKSPACE_ROBOTS robots of one workspace (and as many of another) at which the robots page is
 *                          timed against a workspace of 60, 0 to skip (bench/phases/workspaces.ts; default 10000)
 *   BENCH_WORKSPACE_AUDIT  audit entries of that workspace at which its log's pages are timed (default 100000)
 *   BENCH_KEEP_DATA=1      keep the stack's data folder and logs (kept anyway on failure)
 */
import os from 'node:os';
import { QUIET_TICK_MS } from '../src/history/keeper-schedule';
import { round } from './util';

/** Each feature on the run path, by its BENCH_ABLATION_FEATURES key: what it is, and the setting that turns it off. */
const EACH: Record<string, { name: string; off: NodeJS.ProcessEnv }> = {
  history: { name: 'run history (the keeper)', off: { HISTORY_KEEPER: '0' } },
  metrics: { name: 'metrics (the worker and the SDK)', off: { WORKER_METRICS_PORT: '0' } },
  searchAttributes: { name: 'search attributes on runs', off: { RUN_SEARCH_ATTRIBUTES: '0' } },
  summaries: { name: 'summaries on runs', off: { RUN_SUMMARIES: '0' } },
  keptBodies: { name: 'kept bodies', off: { KEEP_BODIES: '0' } },
  encryption: { name: 'payload encryption', off: { PAYLOAD_ENCRYPTION: '0' } },
  fieldsSeen: { name: 'fields seen', off: { FIELDS_SEEN: '0' } },
};

/** The ablation's baseline commit by default (BENCH_BASELINE_COMMIT): the code before the run history. */
export const BEFORE_THE_RUN_HISTORY = '756a1f1';

/**
 * Each feature, then all of them at once (`every`): what is left between `without every feature`
 * and the baseline commit is a cost no setting turns off.
 */
export const FEATURES: Record<string, { name: string; off: NodeJS.ProcessEnv }> = {
  ...EACH,
  every: {
    name: 'every feature',
    off: Object.assign({}, ...Object.values(EACH).map((f) => f.off)) as NodeJS.ProcessEnv,
  },
};

export interface Settings {
  levels: number[];
  durationS: number;
  levelRounds: number;
  csvRows: number;
  fanOutBaseline: number;
  csvTimeoutS: number;
  drainTimeoutS: number;
  pollS: number;
  logLevel: string;
  keepData: boolean;
  historyLevels: number[];
  workspaceRobots: number;
  workspaceAudit: number;
  historySamples: number;
  csvWatched: boolean;
  csvPageOpen: boolean;
  csvNoKeeper: boolean;
  csvWarmup: number;
  cluster: boolean;
  n8n: boolean;
  hostileConnections: number;
  hostileCsvRows: number;
  ablationRows: number;
  ablationRounds: number;
  ablationKind: 'csv' | 'json';
  ablationFeatureRows: number;
  ablationFeatures: string[];
  baselineCommit: string;
  senderChecks: boolean;
  inspector: boolean;
  receiverAb: string;
  receiverAbRounds: number;
  triggerCacheConnections: number;
  triggerCacheRounds: number;
  triggerCacheRobots: number;
  floorDeliveries: number;
  deliveryCpu: number;
  deliveryCpuLevels: number[];
  idleRobots: number[];
  idleWindowS: number;
  profile: number;
  idleBaselineCommit: string;
}

function intSetting(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`${name} must be a whole number of at least ${min} (got "${raw}")`);
  return n;
}

/** A comma-separated list of whole numbers of at least 1. */
function wholeNumbers(name: string, fallback: string): number[] {
  const raw = process.env[name]?.trim() || fallback;
  const values = raw.split(',').map((v) => Number(v.trim()));
  if (values.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`${name} must be whole numbers separated by commas (got "${raw}")`);
  return values;
}

export function readSettings(): Settings {
  const levelsRaw = process.env.BENCH_CONCURRENCY?.trim() || '1,16,64';
  const levels = levelsRaw === '0' ? [] : levelsRaw.split(',').map((s) => Number(s.trim()));
  if (levels.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`BENCH_CONCURRENCY must be whole numbers separated by commas, or 0 (got "${levelsRaw}")`);
  const featuresRaw = process.env.BENCH_ABLATION_FEATURES ?? Object.keys(FEATURES).join(',');
  const ablationFeatures = featuresRaw
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const unknown = ablationFeatures.filter((f) => !(f in FEATURES));
  if (unknown.length > 0)
    throw new Error(
      `BENCH_ABLATION_FEATURES: ${unknown.join(', ')} unknown; known: ${Object.keys(FEATURES).join(', ')}`,
    );
  const historyRaw = process.env.BENCH_HISTORY_LEVELS?.trim() || '1000,10000,100000';
  const historyLevels = historyRaw === '0' ? [] : historyRaw.split(',').map((v) => Number(v.trim()));
  if (historyLevels.some((n) => !Number.isInteger(n) || n < 100))
    throw new Error(`BENCH_HISTORY_LEVELS must be whole numbers of at least 100, or 0 (got "${historyRaw}")`);
  const idleRaw = (process.env.BENCH_IDLE_ROBOTS ?? '0,40,160').trim();
  const idleRobots = idleRaw === '' ? [] : idleRaw.split(',').map((v) => Number(v.trim()));
  if (idleRobots.some((n, i) => !Number.isInteger(n) || n < 0 || (i > 0 && n <= idleRobots[i - 1])))
    throw new Error(`BENCH_IDLE_ROBOTS must be whole numbers in ascending order, or '' (got "${idleRaw}")`);
  const ablationRows = intSetting('BENCH_ABLATION_ROWS', 10_000, 0);
  const ablationKind = process.env.BENCH_ABLATION_KIND || 'csv';
  if (ablationKind !== 'csv' && ablationKind !== 'json')
    throw new Error(`BENCH_ABLATION_KIND must be csv or json (got "${ablationKind}")`);
  const ablationRounds = intSetting('BENCH_ABLATION_ROUNDS', 4);
  return {
    levels,
    durationS: intSetting('BENCH_DURATION_S', 10),
    levelRounds: intSetting('BENCH_LEVEL_ROUNDS', 2),
    csvRows: intSetting('BENCH_CSV_ROWS', 100_000, 0),
    fanOutBaseline: intSetting('BENCH_FANOUT_BASELINE', 10_000, 0),
    csvTimeoutS: intSetting('BENCH_CSV_TIMEOUT_S', 3600),
    drainTimeoutS: intSetting('BENCH_DRAIN_TIMEOUT_S', 600),
    pollS: intSetting('BENCH_POLL_S', 1),
    logLevel: process.env.BENCH_LOG_LEVEL || 'warn',
    keepData: process.env.BENCH_KEEP_DATA === '1',
    historyLevels,
    historySamples: intSetting('BENCH_HISTORY_SAMPLES', 200),
    workspaceRobots: intSetting('BENCH_WORKSPACE_ROBOTS', 10_000, 0),
    workspaceAudit: intSetting('BENCH_WORKSPACE_AUDIT', 100_000),
    csvWatched: process.env.BENCH_CSV_WATCHED !== '0',
    csvPageOpen: process.env.BENCH_CSV_PAGE !== '0' && Boolean(process.env.CHROMIUM_BIN),
    csvNoKeeper: process.env.BENCH_CSV_NO_KEEPER !== '0',
    csvWarmup: intSetting('BENCH_CSV_WARMUP', 2000, 0),
    cluster: process.env.BENCH_CLUSTER !== '0',
    n8n: process.env.BENCH_N8N !== '0',
    hostileConnections: intSetting('BENCH_HOSTILE', 16, 0),
    hostileCsvRows: intSetting('BENCH_HOSTILE_CSV_ROWS', 100_000),
    ablationRows,
    ablationRounds,
    ablationKind,
    ablationFeatureRows: intSetting('BENCH_ABLATION_FEATURE_ROWS', Math.ceil(ablationRows / ablationRounds)),
    ablationFeatures,
    baselineCommit: process.env.BENCH_BASELINE_COMMIT ?? BEFORE_THE_RUN_HISTORY,
    senderChecks: intSetting('BENCH_SENDER_CHECKS', 1, 0) > 0,
    inspector: intSetting('BENCH_INSPECTOR', 1, 0) > 0,
    receiverAb: process.env.BENCH_RECEIVER_AB?.trim() ?? '',
    receiverAbRounds: intSetting('BENCH_RECEIVER_AB_ROUNDS', 4),
    triggerCacheConnections: intSetting('BENCH_TRIGGER_CACHE', 64, 0),
    triggerCacheRounds: intSetting('BENCH_TRIGGER_CACHE_ROUNDS', 4),
    triggerCacheRobots: intSetting('BENCH_TRIGGER_CACHE_ROBOTS', 1000, 0),
    floorDeliveries: intSetting('BENCH_FLOOR_DELIVERIES', 2000, 0),
    deliveryCpu: intSetting('BENCH_DELIVERY_CPU', 1200, 0),
    deliveryCpuLevels: wholeNumbers('BENCH_DELIVERY_CPU_LEVELS', '1,16,64'),
    idleRobots,
    idleWindowS: intSetting('BENCH_IDLE_WINDOW_S', QUIET_TICK_MS / 1000),
    profile: intSetting('BENCH_PROFILE', 200, 0),
    idleBaselineCommit: process.env.BENCH_IDLE_BASELINE_COMMIT?.trim() ?? '',
  };
}

export function machineFacts(): Record<string, string | number> {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    totalMemoryGiB: round(os.totalmem() / 1024 ** 3, 1),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAverageAtStart: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
  };
}
