/**
 * An earlier commit's build, for the phases that compare today's code with it (bench/phases/ablation.ts,
 * bench/phases/receiver-ab.ts): `git archive` of the commit into a temporary folder keyed by its
 * hash, compiled there once and kept for later runs. With this checkout's node_modules when its
 * package-lock.json is today's; else with its own, installed there by `npm ci` (a commit before an
 * upgrade cannot run on the upgraded packages: zod 4, mongoose 9).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { log } from './util';

/** The code of `commit`, built once into a folder of its own with this checkout's node_modules; returns that folder. */
export function buildCommit(commit: string): string {
  const root = path.resolve(__dirname, '../..');
  const sha = execFileSync('git', ['rev-parse', '--short', commit], { cwd: root, encoding: 'utf8' }).trim();
  const dir = path.join(os.tmpdir(), `webhooks-baseline-${sha}`);
  const launcher = path.join(dir, 'dist/src/entry/embedded.js');
  const sameLock = spawnSync('git', ['diff', '--quiet', sha, 'HEAD', '--', 'package-lock.json'], { cwd: root });
  const modules = sameLock.status === 0 ? path.join(root, 'node_modules') : null;
  // Kept only for the checkout it was built with: another's node_modules may be gone.
  const built = `${sha} ${modules ?? 'its own node_modules'}`;
  if (fs.existsSync(path.join(dir, '.built')) && fs.readFileSync(path.join(dir, '.built'), 'utf8') === built)
    return dir;
  log(`baseline: building ${commit} (${sha}) in ${dir}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${sha} | tar -x -C '${dir}'`], { cwd: root });
  if (modules) fs.symlinkSync(modules, path.join(dir, 'node_modules'));
  else {
    log(`baseline: ${sha}'s package-lock.json is not today's: npm ci there`);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'ignore' });
  }
  // Its own compiler settings; type errors against this checkout's newer types do not stop the output.
  try {
    execFileSync(path.join(dir, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: dir, stdio: 'ignore' });
  } catch {
    if (!fs.existsSync(launcher)) throw new Error(`${commit} did not build: ${launcher} is missing`);
  }
  execFileSync(process.execPath, ['dist/scripts/bundle-workflows.js'], { cwd: dir, stdio: 'ignore' });
  fs.writeFileSync(path.join(dir, '.built'), built);
  return dir;
}

const binariesOf = new Map<string, NodeJS.ProcessEnv>();

/**
 * The embedded servers that the build in `dir` sets up for itself (its own scripts/binaries.sh, whose
 * `NAME_BIN=path` lines are read as data), so that an earlier commit's stack runs on its own servers,
 * not on today's: a comparison with it then prices a change to how they are built (issue 57's SQLite
 * driver) with the rest. Built once into the same version-keyed cache; looked up once a run.
 */
export function commitBinaries(dir: string): NodeJS.ProcessEnv {
  const known = binariesOf.get(dir);
  if (known) return known;
  const { TEMPORAL_CLI_BIN: _t, FERRETDB_BIN: _f, SQLITE_TUNE_BIN: _s, ...env } = process.env;
  const out = execFileSync('bash', [path.join(dir, 'scripts/binaries.sh')], {
    cwd: dir,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const found: NodeJS.ProcessEnv = {};
  for (const line of out.split('\n')) {
    const m = /^([A-Z][A-Z0-9_]*_BIN)=(.*)$/.exec(line);
    if (m) found[m[1]] = m[2];
  }
  binariesOf.set(dir, found);
  return found;
}
