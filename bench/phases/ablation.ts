/**
 * What a CSV row costs against the code before the run history, and what each feature costs
 * (docs/benchmark.md). On this machine one CSV's rate moves by up to a fifth from one minute to
 * the next, more than most features cost, so nothing here is compared with a measurement made
 * minutes apart:
 *
 * 1. **Against the baseline commit** (BENCH_BASELINE_COMMIT, before the run history): a stack of
 *    today's code with every feature on and a stack of that commit run side by side, idle but for
 *    the CSV being measured, and take turns (BENCH_ABLATION_ROUNDS rounds, the order alternating)
 *    with CSVs of BENCH_ABLATION_ROWS ÷ rounds rows. Each round is a ratio; the figure of record is
 *    all rows over all seconds of each, and its ratio.
 * 2. **Each feature off**: for each feature (BENCH_ABLATION_FEATURES) a stack with it off, measured
 *    right after the same CSV on the all-on stack, which stays up: each ratio is of two CSVs a
 *    minute apart.
 */
import path from 'node:path';
import { buildCommit } from '../build-commit';
import { clientsOf, type BenchClients } from '../context';
import type { Settings } from '../settings';
import { launchStack, type BenchStack } from '../stack';
import { log, round } from '../util';
import { csvFanOut, warmCsv, type CsvResult } from './csv';

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

/** Sums of one side of the comparison with the baseline: its CSVs together. */
export interface SideTotal {
  rows: number;
  seconds: number;
  runsPerSec: number;
  /** CPU ms per run of each process, over all its CSVs. */
  cpuMsPerRun: CsvResult['cpuMsPerRun'];
}

export interface BaselineComparison {
  commit: string;
  rounds: Array<{ allOn: CsvResult; baseline: CsvResult; ratio: number }>;
  allOn: SideTotal;
  baseline: SideTotal;
  /** All on ÷ baseline, rows over seconds of each. */
  ratio: number;
}

export interface FeatureRow {
  feature: string;
  name: string;
  env: NodeJS.ProcessEnv;
  off: CsvResult;
  /** The same CSV on the all-on stack just before. */
  allOn: CsvResult;
  /** runs/s with the feature off ÷ all on's. */
  vsAllOn: number;
}

export interface AblationResult {
  rows: number;
  baseline: BaselineComparison | null;
  features: FeatureRow[];
}

type Up = { stack: BenchStack; clients: BenchClients; stop: () => Promise<void> };

/** A stack of its own (`env` set, another build's `launcher`), warmed up; `stop` ends it. */
async function up(s: Settings, cleanups: Array<() => Promise<void>>, env: NodeJS.ProcessEnv, launcher?: string) {
  const stack = await launchStack({ logLevel: s.logLevel, startTimeoutS: 180, env, launcher });
  // Set once the stack answers; a stop before that has no clients to close.
  const opened: { clients?: BenchClients } = {};
  const stop = async () => {
    await opened.clients?.close();
    await stack.stop(s.keepData);
    cleanups.splice(cleanups.indexOf(stop), 1);
  };
  cleanups.push(stop);
  await stack.ready;
  const clients = (opened.clients = await clientsOf(stack, s));
  await warmCsv(clients, false);
  return { stack, clients, stop } satisfies Up;
}

/**
 * Progress is counted the same way on every stack, in Temporal's visibility store (every
 * SCAN_POLL_S): the baseline commit's robot counts are FerretDB counts of every run, which asked
 * every second slowed it more and more as its runs grew.
 */
const csvOn = (u: Up, rows: number) => csvFanOut(u.clients, null, rows, false);

function total(csvs: CsvResult[]): SideTotal {
  const rows = csvs.reduce((n, c) => n + c.rows, 0);
  const seconds = csvs.reduce((n, c) => n + c.seconds, 0);
  const roles = Object.keys(csvs[0].cpuMsPerRun) as Array<keyof CsvResult['cpuMsPerRun']>;
  const cpuMsPerRun = Object.fromEntries(
    roles.map((role) => [role, round(csvs.reduce((n, c) => n + c.cpuMsPerRun[role] * c.rows, 0) / rows, 2)]),
  ) as CsvResult['cpuMsPerRun'];
  return { rows, seconds: round(seconds, 1), runsPerSec: round(rows / seconds, 1), cpuMsPerRun };
}

async function againstBaseline(s: Settings, allOn: Up, cleanups: Array<() => Promise<void>>) {
  const launcher = path.join(buildCommit(s.baselineCommit), 'dist/src/entry/embedded.js');
  const baseline = await up(s, cleanups, {}, launcher);
  try {
    const rows = Math.ceil(s.ablationRows / s.ablationRounds);
    const rounds: BaselineComparison['rounds'] = [];
    for (let r = 0; r < s.ablationRounds; r++) {
      log(`ablation: round ${r + 1} of ${s.ablationRounds}, ${rows} rows on each (all on and ${s.baselineCommit})`);
      const first = r % 2 === 0 ? allOn : baseline;
      const a = await csvOn(first, rows);
      const b = await csvOn(first === allOn ? baseline : allOn, rows);
      const [on, base] = first === allOn ? [a, b] : [b, a];
      rounds.push({ allOn: on, baseline: base, ratio: round(on.runsPerSec / base.runsPerSec, 3) });
    }
    const [on, base] = [total(rounds.map((r) => r.allOn)), total(rounds.map((r) => r.baseline))];
    return {
      commit: s.baselineCommit,
      rounds,
      allOn: on,
      baseline: base,
      ratio: round(on.runsPerSec / base.runsPerSec, 3),
    } satisfies BaselineComparison;
  } finally {
    await baseline.stop();
  }
}

export async function ablation(s: Settings, cleanups: Array<() => Promise<void>>): Promise<AblationResult> {
  const rows = s.ablationFeatureRows;
  const allOn = await up(s, cleanups, {});
  try {
    const baseline = s.baselineCommit ? await againstBaseline(s, allOn, cleanups) : null;
    const features: FeatureRow[] = [];
    for (const key of s.ablationFeatures) {
      const { name, off } = FEATURES[key];
      log(`ablation: ${rows} rows with every feature on, then without ${name}`);
      const on = await csvOn(allOn, rows);
      const without = await up(s, cleanups, off);
      try {
        const csv = await csvOn(without, rows);
        const vsAllOn = round(csv.runsPerSec / on.runsPerSec, 3);
        features.push({ feature: key, name, env: off, off: csv, allOn: on, vsAllOn });
      } finally {
        await without.stop();
      }
    }
    return { rows, baseline, features };
  } finally {
    await allOn.stop();
  }
}
