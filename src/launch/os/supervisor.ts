/**
 * Keeps the receiver or the worker running under the embedded launcher. A process that dies is
 * started again after RESTART_FIRST_MS, then twice as long after each further death in a row, up
 * to RESTART_MAX_MS; one that ran STABLE_MS or longer starts the count again. Each restart is
 * logged with the exit code and the last lines the process wrote to stderr, so a process that
 * keeps dying says why.
 */
import type { Logger } from '../../core/log';
import { spawnManaged, type ManagedProcess } from './managed-process';

const RESTART_FIRST_MS = 1000;
export const RESTART_MAX_MS = 60_000;
const STABLE_MS = 60_000;
/** Lines of a process's stderr kept for the message when it dies. */
const LAST_WORDS = 10;

export interface Supervised {
  current(): ManagedProcess;
  stop(): Promise<void>;
}

/** The wait before the next start, after `failures` deaths in a row. */
export function restartDelay(failures: number): number {
  return Math.min(RESTART_MAX_MS, RESTART_FIRST_MS * 2 ** Math.max(0, failures - 1));
}

export function supervise(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  log: Logger,
  /** Its output goes to this file instead of the launcher's (its last words are then only there). */
  logFile?: string,
): Supervised {
  let current: ManagedProcess;
  let stopping = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  const launch = () => {
    const startedAt = Date.now();
    let tail: string[] = [];
    current = spawnManaged(name, command, args, {
      env,
      logFile,
      onStderr: (chunk) => {
        tail = [
          ...tail,
          ...chunk
            .toString('utf8')
            .split('\n')
            .filter((l) => l.trim() !== ''),
        ].slice(-LAST_WORDS);
      },
    });
    current.child.once('exit', (code, signal) => {
      if (stopping) return;
      failures = Date.now() - startedAt >= STABLE_MS ? 1 : failures + 1;
      const delay = restartDelay(failures);
      log.warn(`${name} exited (${code ?? signal}); restarting in ${delay / 1000} s`, {
        failuresInARow: failures,
        lastWords: tail,
      });
      timer = setTimeout(launch, delay);
    });
  };
  launch();
  return {
    current: () => current,
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await current.stop();
    },
  };
}
