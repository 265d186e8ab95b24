/**
 * What a CSV row costs against the code before the run history, and what each feature costs
 * (docs/benchmark.md). On this machine one CSV's rate moves by up to a fifth from one minute to
 * the next, more than most features cost, so nothing here is compared with a measurement made
 * minutes apart:
 *
 * 1. **Against the baseline commit** (BENCH_BASELINE_COMMIT; by default BEFORE_THE_RUN_HISTORY): a
 *    stack of today's code with every feature on and a stack of that commit run side by side, idle
 *    but for the CSV being measured, and take turns (BENCH_ABLATION_ROUNDS rounds, the order
 *    alternating) with CSVs of BENCH_ABLATION_ROWS ÷ rounds rows. Each round is a ratio; the figure
 *    of record is all rows over all seconds of each, and its ratio.
 * 2. **Each feature off**: for each feature (BENCH_ABLATION_FEATURES) a stack with it off beside a
 *    fresh all-on stack, taking turns the same way (BENCH_ABLATION_ROUNDS rounds of
 *    BENCH_ABLATION_FEATURE_ROWS ÷ rounds rows on each).
 *
 * Both comparisons are the same measurement (`inTurns`): only what the second stack runs differs.
 */
import path from 'node:path';
import { buildCommit } from '../build-commit';
import { stackOfItsOwn, type StackOfItsOwn } from '../context';
import { FEATURES, type Settings } from '../settings';
import { log, round } from '../util';
import { csvFanOut, warmCsv, type CsvResult } from './csv';
import { jsonDeliveries } from './json-deliveries';

/** Sums of one side of a comparison: its CSVs together. */
export interface SideTotal {
  rows: number;
  seconds: number;
  runsPerSec: number;
  /** CPU ms per run of each process, over all its CSVs. */
  cpuMsPerRun: CsvResult['cpuMsPerRun'];
}

/** Two stacks taking turns with the same CSV: every feature on, and the other one. */
export interface Turns {
  /** Each round's two CSVs, and all on's runs/s ÷ the other's. */
  rounds: Array<{ allOn: CsvResult; other: CsvResult; ratio: number }>;
  allOn: SideTotal;
  other: SideTotal;
  /** All on ÷ the other, rows over seconds of each: below 1, every feature on is the slower. */
  ratio: number;
}

/** Today's code with every feature on against the baseline commit (`other`): `ratio` is today ÷ it. */
export interface BaselineComparison extends Turns {
  commit: string;
}

/** Today's code with one feature off (`other`) against every feature on: `ratio` is its price, all on ÷ off. */
export interface FeatureRow extends Turns {
  feature: string;
  name: string;
  env: NodeJS.ProcessEnv;
}

export interface AblationResult {
  /** Rows of each feature's comparison, on each side. */
  rows: number;
  baseline: BaselineComparison | null;
  features: FeatureRow[];
}

/** A stack of its own (`env` set, another build's `launcher`), warmed up; `stop` ends it. */
export async function up(s: Settings, cleanups: Array<() => Promise<void>>, env: NodeJS.ProcessEnv, launcher?: string) {
  const own = await stackOfItsOwn(s, cleanups, env, launcher);
  await warmCsv(own.clients, false);
  return own;
}

/**
 * Progress is counted the same way on every stack, in Temporal's visibility store (every
 * SCAN_POLL_S): the baseline commit's robot counts are FerretDB counts of every run, which asked
 * every second slowed it more and more as its runs grew. BENCH_ABLATION_KIND=json measures json
 * deliveries of one run each instead of a CSV's rows (a change to a delivery's own path).
 */
const workOn = (u: StackOfItsOwn, rows: number) =>
  u.clients.s.ablationKind === 'json' ? jsonDeliveries(u.clients, rows) : csvFanOut(u.clients, null, rows, false);

/** One side's turns together: rows over seconds, and each process's CPU per run weighted by rows. */
export function total(csvs: CsvResult[]): SideTotal {
  const rows = csvs.reduce((n, c) => n + c.rows, 0);
  const seconds = csvs.reduce((n, c) => n + c.seconds, 0);
  const roles = Object.keys(csvs[0].cpuMsPerRun) as Array<keyof CsvResult['cpuMsPerRun']>;
  const cpuMsPerRun = Object.fromEntries(
    roles.map((role) => [role, round(csvs.reduce((n, c) => n + c.cpuMsPerRun[role] * c.rows, 0) / rows, 2)]),
  ) as CsvResult['cpuMsPerRun'];
  return { rows, seconds: round(seconds, 1), runsPerSec: round(rows / seconds, 1), cpuMsPerRun };
}

/**
 * `rows` rows on each of the two stacks in `rounds` CSVs, the stacks taking turns and the one that
 * goes first alternating, so that neither meets the machine's slower minutes more than the other.
 */
async function inTurns(
  allOn: StackOfItsOwn,
  other: StackOfItsOwn,
  rows: number,
  rounds: number,
  name: string,
): Promise<Turns> {
  const each = Math.ceil(rows / rounds);
  const done: Turns['rounds'] = [];
  for (let r = 0; r < rounds; r++) {
    const unit = allOn.clients.s.ablationKind === 'json' ? 'json deliveries' : 'rows';
    log(`ablation: round ${r + 1} of ${rounds}, ${each} ${unit} on each (every feature on, and ${name})`);
    const first = r % 2 === 0 ? allOn : other;
    const a = await workOn(first, each);
    const b = await workOn(first === allOn ? other : allOn, each);
    const [on, them] = first === allOn ? [a, b] : [b, a];
    done.push({ allOn: on, other: them, ratio: round(on.runsPerSec / them.runsPerSec, 3) });
  }
  const [on, them] = [total(done.map((r) => r.allOn)), total(done.map((r) => r.other))];
  return { rounds: done, allOn: on, other: them, ratio: round(on.runsPerSec / them.runsPerSec, 3) };
}

export async function ablation(s: Settings, cleanups: Array<() => Promise<void>>): Promise<AblationResult> {
  /**
   * Two fresh stacks side by side, every feature on and the other, measured in turns, then both
   * stopped. A fresh pair each time: an all-on stack kept up through the whole ablation grew dearer
   * as its robots grew (the history keeper then looked at every robot every second, and still does
   * for a minute after a robot's last delivery), which showed up as a price of whichever feature
   * came last (docs/benchmark.md, 2026-11-27).
   */
  const against = async (name: string, rows: number, env: NodeJS.ProcessEnv, launcher?: string) => {
    const allOn = await up(s, cleanups, {});
    try {
      const other = await up(s, cleanups, env, launcher);
      try {
        return await inTurns(allOn, other, rows, s.ablationRounds, name);
      } finally {
        await other.stop();
      }
    } finally {
      await allOn.stop();
    }
  };
  const commit = s.baselineCommit;
  const baseline = commit
    ? {
        commit,
        ...(await against(commit, s.ablationRows, {}, path.join(buildCommit(commit), 'dist/src/entry/embedded.js'))),
      }
    : null;
  const features: FeatureRow[] = [];
  for (const feature of s.ablationFeatures) {
    const { name, off } = FEATURES[feature];
    features.push({ feature, name, env: off, ...(await against(`without ${name}`, s.ablationFeatureRows, off)) });
  }
  return { rows: s.ablationFeatureRows, baseline, features };
}
