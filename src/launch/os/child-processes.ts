/**
 * The service's own entry points as child processes (compiled by `npm run build`, which the test
 * and bench commands run), and facts about processes. Used by the tests (through ts) and by the
 * bench (compiled, from dist/src/runtime).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The compiled entry points: dist/src/entry, whether this file runs as TypeScript or from dist/. */
const DIST =
  path.extname(__filename) === '.js'
    ? path.resolve(__dirname, '../../entry')
    : path.resolve(__dirname, '../../../dist/src/entry');

export function entryPoint(
  name: 'worker' | 'receiver' | 'embedded' | 'cluster',
  howToBuild = 'run the tests with `npm test`, which builds it',
): string {
  const file = path.join(DIST, `${name}.js`);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: ${howToBuild}`);
  return file;
}

/** Starts an entry point with the given environment; its output goes to `logFile`. */
export function startProcess(
  name: 'worker' | 'receiver' | 'embedded' | 'cluster',
  env: NodeJS.ProcessEnv,
  logFile: string,
): ChildProcess {
  const out = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [entryPoint(name)], { env, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  return child;
}

/** Resolves with the child's exit code once it has exited (at once if it has). */
export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/**
 * Stops a child: `signal` (its clean stop), then SIGKILL if it is still running after `graceMs`;
 * resolves once it has exited. The one stop-with-grace of the launchers, the tests and the bench.
 */
export async function stopWithGrace(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited(child);
  clearTimeout(timer);
}

/** Whether a process with this pid exists (signal 0). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every process below `root`, from the parent ids in /proc/<pid>/stat (empty where /proc is missing). */
export function descendants(root: number): number[] {
  const parentOf = new Map<number, number>();
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  for (const entry of entries) {
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // the process ended meanwhile
    }
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [pid, ppid] of parentOf) {
      if (ppid === parent) {
        found.push(pid);
        queue.push(pid);
      }
    }
  }
  return found;
}
