/**
 * The worker gives way on the CPU (src/launch/os/worker-priority.ts): every thread of its process
 * ends at least as nice as WORKER_NICE. Run in a child process, so this test's own threads keep
 * their priority: the module is transpiled as it is and loaded there.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

const source = fs.readFileSync(path.join(__dirname, '../../src/launch/os/worker-priority.ts'), 'utf8');
const moduleJs = ts.transpileModule(source, {
  compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
}).outputText;

/**
 * In a fresh process with a few threads, started `start` nicer than this one: giveWayOnCpu(arg);
 * what it lowered, each thread's niceness after, and the niceness the process started at.
 */
function nicenessAfter(start: number, arg: number): { lowered: number; threads: number[]; startedAt: number } {
  const startedAt = Math.min(19, os.getPriority() + start);
  const script = `
    const os = require('node:os');
    const fs = require('node:fs');
    const { Worker } = require('node:worker_threads');
    const m = { exports: {} };
    new Function('require', 'module', 'exports', ${JSON.stringify(moduleJs)})(require, m, m.exports);
    // More threads than the main one: a worker thread, as the SDK's workflow threads are.
    const w = new Worker('setInterval(() => {}, 1000)', { eval: true });
    w.on('online', () => {
      const log = { debug() {}, info() {}, warn() {}, error() {}, child() { return log; } };
      const lowered = m.exports.giveWayOnCpu(${arg}, log);
      const threads = fs.readdirSync('/proc/self/task').map((t) => os.getPriority(Number(t)));
      process.stdout.write(JSON.stringify({ lowered, threads }));
      process.exit(0);
    });`;
  const res = spawnSync('nice', ['-n', String(start), process.execPath, '-e', script], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`the child failed: ${res.stderr}`);
  return { ...(JSON.parse(res.stdout) as { lowered: number; threads: number[] }), startedAt };
}

const linux = process.platform === 'linux' ? it : it.skip;

linux('lowers every thread of the process to the niceness asked for', () => {
  const { lowered, threads, startedAt } = nicenessAfter(0, 19);
  expect(threads.length).toBeGreaterThan(2);
  expect(lowered).toBe(startedAt < 19 ? threads.length : 0);
  expect(threads).toEqual(threads.map(() => 19));
});

linux('never makes a thread less nice than it was started, and 0 leaves every thread as it is', () => {
  const nicer = nicenessAfter(15, 10);
  expect(nicer.lowered).toBe(0);
  expect(nicer.threads).toEqual(nicer.threads.map(() => nicer.startedAt));
  const untouched = nicenessAfter(3, 0);
  expect(untouched.lowered).toBe(0);
  expect(untouched.threads).toEqual(untouched.threads.map(() => untouched.startedAt));
});
