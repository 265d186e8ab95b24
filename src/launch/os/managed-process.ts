/**
 * A server the launchers run as a child process: spawned with its output to a log file, its pid
 * recorded for the next start to stop it if it is left running (./left-over.ts), stopped with its
 * clean-stop signal and then SIGKILL after a grace; and waiting until it accepts connections.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { exited, stopWithGrace } from './child-processes';
import { recordServer } from './left-over';

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  /** The stop signal (SIGTERM unless the spawn named another), then SIGKILL after `graceMs`; resolves on exit. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL at once (a crash, for the fault tests); resolves on exit. */
  kill(): Promise<void>;
}

interface SpawnOptions {
  env?: NodeJS.ProcessEnv;
  /** Both outputs go to this file; without one they are the launcher's own. */
  logFile?: string;
  /** Without a log file: also given every piece of the process's stderr (which still reaches ours). */
  onStderr?: (chunk: Buffer) => void;
  /** The signal that asks for a clean stop (PostgreSQL: SIGINT, its fast shutdown); SIGTERM otherwise. */
  stopSignal?: NodeJS.Signals;
  /** Where its pid is kept while it runs, for the next start to stop it if it is left running (./left-over.ts). */
  pidFile?: string;
}

export function spawnManaged(name: string, command: string, args: string[], opts: SpawnOptions = {}): ManagedProcess {
  const out = opts.logFile ? fs.openSync(opts.logFile, 'a') : 'inherit';
  const err = typeof out === 'string' && opts.onStderr ? 'pipe' : out;
  const child = spawn(command, args, { env: opts.env ?? process.env, stdio: ['ignore', out, err] });
  if (typeof out === 'number') fs.closeSync(out);
  child.stderr?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    opts.onStderr?.(chunk);
  });
  if (opts.pidFile)
    recordServer(
      opts.pidFile,
      child.pid,
      exited(child).then(() => undefined),
    );
  return {
    name,
    child,
    stop: (graceMs = 10_000) => stopWithGrace(child, opts.stopSignal ?? 'SIGTERM', graceMs),
    kill: () => stopWithGrace(child, 'SIGKILL', 0),
  };
}

/** Resolves once something accepts TCP connections on the port; fails if the process exits first. */
export function waitForPort(
  port: number,
  proc: Pick<ManagedProcess, 'name' | 'child'>,
  timeoutMs = 120_000,
): Promise<void> {
  return waitUntilAccepting({ port, host: '127.0.0.1' }, `port ${port}`, proc, timeoutMs);
}

/** Resolves once something accepts connections on the unix socket; fails if the process exits first. */
export function waitForSocket(
  socketPath: string,
  proc: Pick<ManagedProcess, 'name' | 'child'>,
  timeoutMs = 120_000,
): Promise<void> {
  return waitUntilAccepting({ path: socketPath }, `socket ${socketPath}`, proc, timeoutMs);
}

async function waitUntilAccepting(
  target: net.NetConnectOpts,
  what: string,
  proc: Pick<ManagedProcess, 'name' | 'child'>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.child.exitCode !== null)
      throw new Error(`${proc.name} exited with code ${proc.child.exitCode} while starting`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(target);
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`${proc.name} did not open ${what} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
