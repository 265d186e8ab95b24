/**
 * What a process runs, for `webhooks_build_info` (src/core/metrics.ts): the package's version
 * (package.json), the Node that runs it, and the git commit `npm run build` was made from
 * (dist/build-info.json, written by scripts/build-info.ts), else `unknown` (run from the sources, or
 * built where neither git nor WEBHOOKS_REVISION told the commit). Read once per process.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface BuildInfo {
  /** package.json's version. */
  version: string;
  /** The commit's first 12 hex digits, WEBHOOKS_REVISION at build, or `unknown`. */
  revision: string;
  /** `process.version`, e.g. `v24.22.3`. */
  nodeVersion: string;
}

/** Beside the compiled code: dist/build-info.json from dist/src/core (never read from the sources' tree). */
export const BUILD_INFO_FILE = path.resolve(__dirname, '../..', 'build-info.json');

/**
 * What a revision may be: it becomes a label value, and a label never holds more than a short word
 * (src/core/metrics.ts). A git commit's 12 hex digits, or a tag such as `v0.11.0` or `0.11.0-rc.1`.
 */
export const REVISION = /^[\w.+-]{1,39}$/;

/** The package's root: the first folder up from here with a package.json (src/core or dist/src/core). */
function packageJson(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, 'package.json');
}

function readJson(file: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

let read: BuildInfo | undefined;

export function buildInfo(): BuildInfo {
  if (read) return read;
  const { version } = readJson(packageJson());
  const { revision } = readJson(BUILD_INFO_FILE);
  read = {
    version: typeof version === 'string' && REVISION.test(version) ? version : 'unknown',
    revision: typeof revision === 'string' && REVISION.test(revision) ? revision : 'unknown',
    nodeVersion: process.version,
  };
  return read;
}
