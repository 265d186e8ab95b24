/**
 * What each feature costs a CSV row (docs/benchmark.md): the same CSV (BENCH_ABLATION_ROWS rows,
 * after an unmeasured warm-up) on a stack of its own with every feature on, then with each one
 * turned off by its setting, then on the code of an earlier commit (BENCH_BASELINE_COMMIT, before
 * the run history), one after the other on this machine in this run. Each as runs/s, its ratio to
 * all-on, and each process's CPU per run.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Settings } from '../settings';
import { log } from '../util';
import { csvOnStackOfItsOwn, type CsvResult } from './csv';

/** Each feature on the run path, by its BENCH_ABLATION_FEATURES key: what it is, and the setting that turns it off. */
const EACH: Record<string, { name: string; off: NodeJS.ProcessEnv }> = {
  history: { name: 'run history (the keeper)', off: { HISTORY_KEEPER: '0' } },
  metrics: { name: 'metrics (the worker and the SDK)', off: { WORKER_METRICS_PORT: '0' } },
  searchAttributes: { name: 'search attributes on runs', off: { RUN_SEARCH_ATTRIBUTES: '0' } },
  summaries: { name: 'summaries on runs', off: { RUN_SUMMARIES: '0' } },
  keptBodies: { name: 'kept bodies', off: { KEEP_BODIES: '0' } },
  encryption: { name: 'payload encryption', off: { PAYLOAD_ENCRYPTION: '0' } },
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

export interface AblationRow {
  /** `all on`, `without <feature>`, or `<commit> (baseline)`. */
  variant: string;
  env: NodeJS.ProcessEnv;
  csv: CsvResult;
  /** runs/s ÷ all-on's. */
  vsAllOn: number;
}

/** The code of `commit`, built once into a folder of its own with this checkout's node_modules. */
function buildCommit(commit: string): string {
  const root = path.resolve(__dirname, '../../..');
  const sha = execFileSync('git', ['rev-parse', '--short', commit], { cwd: root, encoding: 'utf8' }).trim();
  const dir = path.join(os.tmpdir(), `webhooks-baseline-${sha}`);
  const launcher = path.join(dir, 'dist/src/entry/embedded.js');
  if (fs.existsSync(path.join(dir, '.built'))) return launcher;
  log(`baseline: building ${commit} (${sha}) in ${dir}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${sha} | tar -x -C '${dir}'`], { cwd: root });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  // Its own compiler settings; type errors against this checkout's newer types do not stop the output.
  try {
    execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: dir, stdio: 'ignore' });
  } catch {
    if (!fs.existsSync(launcher)) throw new Error(`${commit} did not build: ${launcher} is missing`);
  }
  execFileSync(process.execPath, ['dist/scripts/bundle-workflows.js'], { cwd: dir, stdio: 'ignore' });
  fs.writeFileSync(path.join(dir, '.built'), sha);
  return launcher;
}

/** One variant: a stack of its own, the warm-up CSV, then the measured one. */
function variant(s: Settings, cleanups: Array<() => Promise<void>>, env: NodeJS.ProcessEnv, launcher?: string) {
  return csvOnStackOfItsOwn(s, cleanups, s.ablationRows, env, launcher);
}

export async function ablation(s: Settings, cleanups: Array<() => Promise<void>>): Promise<AblationRow[]> {
  const rows: AblationRow[] = [];
  const add = (name: string, env: NodeJS.ProcessEnv, csv: CsvResult) =>
    rows.push({ variant: name, env, csv, vsAllOn: rows.length === 0 ? 1 : csv.runsPerSec / rows[0].csv.runsPerSec });
  log(`ablation: ${s.ablationRows} rows with every feature on`);
  add('all on', {}, await variant(s, cleanups, {}));
  for (const key of s.ablationFeatures) {
    const { name, off } = FEATURES[key];
    log(`ablation: ${s.ablationRows} rows without ${name}`);
    add(`without ${name}`, off, await variant(s, cleanups, off));
  }
  if (s.baselineCommit) {
    const launcher = buildCommit(s.baselineCommit);
    log(`ablation: ${s.ablationRows} rows on ${s.baselineCommit}`);
    add(`${s.baselineCommit} (baseline)`, {}, await variant(s, cleanups, {}, launcher));
  }
  return rows;
}
