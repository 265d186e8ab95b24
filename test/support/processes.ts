/** The service's own entry points as child processes (compiled by `npm run build`, which the test command runs). */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const DIST = path.resolve(__dirname, '../../dist/src/entry');

export function entryPoint(name: 'worker' | 'receiver' | 'embedded'): string {
  const file = path.join(DIST, `${name}.js`);
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run the tests with \`npm test\`, which builds it`);
  return file;
}

/** Starts an entry point with the given environment; its output goes to `logFile`. */
export function startProcess(
  name: 'worker' | 'receiver' | 'embedded',
  env: NodeJS.ProcessEnv,
  logFile: string,
): ChildProcess {
  const out = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [entryPoint(name)], { env, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  return child;
}

export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}
