/**
 * What a stack's processes are and use, read from /proc (Linux only): the launcher's children by
 * script, each process's role in the stack, its CPU seconds and its memory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { descendants } from '../src/launch/os/child-processes';
import { round } from './util';
import { BRIDGE_MARKER } from '../src/launch/servers/dev-namespace';

/** The pids of the launcher's children whose command line names `script` (e.g. `entry/worker.js`). */
export function childrenRunning(launcherPid: number, script: string): number[] {
  return descendants(launcherPid).filter((pid) => {
    try {
      return fs
        .readFileSync(`/proc/${pid}/cmdline`, 'utf8')
        .split('\0')
        .some((arg) => arg.endsWith(script));
    } catch {
      return false; // gone
    }
  });
}

/** The pid of the launcher's (first) child whose command line names `script`. */
export function childRunning(launcherPid: number, script: string): number | null {
  return childrenRunning(launcherPid, script)[0] ?? null;
}

export type StackRole = 'temporal' | 'ferretdb' | 'worker' | 'receiver' | 'postgresql' | 'entry';

/** Linux's clock ticks per second for /proc/<pid>/stat times (USER_HZ, 100 on every mainstream build). */
const CLOCK_TICKS = 100;

function roleOf(args: string[]): StackRole | null {
  const program = path.basename(args[0] ?? '');
  // The dev server's bridge (its only way in) is part of what Temporal costs.
  if (program.startsWith('temporal') || args.some((a) => a.startsWith(BRIDGE_MARKER))) return 'temporal';
  if (program.startsWith('ferretdb')) return 'ferretdb';
  if (program === 'postgres' || (args[0] ?? '').startsWith('postgres:')) return 'postgresql';
  if (program === 'nginx' || (args[0] ?? '').startsWith('nginx:')) return 'entry';
  if (args.some((a) => a.endsWith('entry/worker.js'))) return 'worker';
  if (args.some((a) => a.endsWith('entry/receiver.js'))) return 'receiver';
  return null;
}

/** CPU seconds (user + system) a process has used so far; throws when it is gone. */
export function cpuSecondsOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime, stime
}

/** The CPU seconds used so far by the processes below `root` whose command line `matches` (0 where unreadable). */
export function cpuSecondsBelow(root: number, matches: (args: string[]) => string | null): Record<string, number> {
  const cpu: Record<string, number> = {};
  for (const pid of descendants(root)) {
    try {
      const name = matches(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'));
      if (name) cpu[name] = (cpu[name] ?? 0) + cpuSecondsOf(pid);
    } catch {
      // gone
    }
  }
  return cpu;
}

/** CPU seconds (user + system) used so far by the stack's processes, by role (0 where unreadable). */
export function stackCpuSeconds(launcherPid: number): Record<StackRole, number> {
  const none = { temporal: 0, ferretdb: 0, worker: 0, receiver: 0, postgresql: 0, entry: 0 };
  return { ...none, ...cpuSecondsBelow(launcherPid, roleOf) };
}

/** CPU milliseconds per unit of work (a run, an ack, a second) from CPU seconds, rounded to `digits`. */
export function msPer(seconds: number, units: number, digits = 2): number {
  return round((seconds * 1000) / Math.max(1, units), digits);
}

/** Each process's CPU milliseconds between two readings of stackCpuSeconds, per unit of work (a run, a second). */
export function cpuMsPer(
  before: Record<StackRole, number>,
  after: Record<StackRole, number>,
  units: number,
  digits = 2,
): Record<StackRole, number> {
  const roles = Object.keys(after) as StackRole[];
  return Object.fromEntries(roles.map((role) => [role, msPer(after[role] - before[role], units, digits)])) as Record<
    StackRole,
    number
  >;
}

/** Resident set size now and at its peak (VmRSS, VmHWM), in bytes; null if unreadable. */
export function memoryOf(pid: number): { rss: number; hwm: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    const mem = { rss: kb('VmRSS'), hwm: kb('VmHWM') };
    return Number.isNaN(mem.rss) || Number.isNaN(mem.hwm) ? null : mem;
  } catch {
    return null;
  }
}
