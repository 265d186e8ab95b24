/**
 * Servers left running by a launcher that was killed (SIGKILL, a crash, a closed terminal's
 * session): the Temporal dev server and FerretDB are Go binaries that do not notice their parent
 * is gone, and they keep their port and their SQLite files (Temporal's under an exclusive lock),
 * so the next start would fail. Each embedded server's pid is kept in a file in the data folder
 * while it runs, with its launcher's; the next start over that folder stops a server still running
 * from it whose launcher is gone. One whose launcher still runs is left alone, and the start fails
 * saying so: two launchers on one data folder would share its files.
 *
 * A pid is trusted only while that process's command line is still the one recorded (its binary
 * and the data folder in its arguments), so a pid reused by another process is never signalled.
 * This reads /proc: where there is none (macOS), a left-over server is not found, as before.
 */
import fs from 'node:fs';
import { waitFor } from './wait';

/** How long a left-over server has to stop on SIGTERM before it is killed. */
const LEFT_OVER_GRACE_MS = 10_000;

interface Running {
  pid: number;
  /** The process's command line, NUL-separated, as /proc/<pid>/cmdline gives it. */
  cmdline: string;
}

/** A server, and the process that started it (the launcher). */
interface Recorded extends Running {
  launcher: Running;
}

/** Whether the process still runs as recorded. */
const stillRuns = ({ pid, cmdline }: Running) => commandLineOf(pid) === cmdline;

/** The process's command line as /proc gives it; null for none, or a process that has exited (a zombie). */
function commandLineOf(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return null;
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return null;
  }
}

/** Records a server this process started, and forgets it when it exits. */
export function recordServer(pidFile: string, pid: number | undefined, onExit: Promise<void>): void {
  const cmdline = pid === undefined ? null : commandLineOf(pid);
  const launcherCmdline = commandLineOf(process.pid);
  if (pid === undefined || cmdline === null || launcherCmdline === null) return;
  const launcher = { pid: process.pid, cmdline: launcherCmdline };
  const record = JSON.stringify({ pid, cmdline, launcher } satisfies Recorded);
  try {
    // Whole or not at all: a launcher killed mid-write leaves no half a record.
    fs.writeFileSync(`${pidFile}.new`, record);
    fs.renameSync(`${pidFile}.new`, pidFile);
  } catch {
    return; // not recorded (a read-only or full disk): the server runs, and is not found if left over
  }
  // Unless a server started since (a restart after a kill) has recorded itself there.
  void onExit.then(() => {
    try {
      if (fs.readFileSync(pidFile, 'utf8') === record) fs.rmSync(pidFile, { force: true });
    } catch {
      // removed already
    }
  });
}

/**
 * Stops the server recorded in `pidFile` if it still runs as recorded and its launcher does not
 * (SIGTERM, then SIGKILL after LEFT_OVER_GRACE_MS); returns its pid, or null when there was none.
 * Throws if its launcher still runs, or if it cannot be stopped.
 */
export async function stopLeftOver(pidFile: string, name: string): Promise<number | null> {
  let recorded: Partial<Recorded> | null;
  try {
    recorded = JSON.parse(fs.readFileSync(pidFile, 'utf8')) as Partial<Recorded> | null;
  } catch {
    return null; // none recorded, or a file not ours: nothing is trusted
  }
  if (typeof recorded?.pid !== 'number' || typeof recorded.cmdline !== 'string') return null;
  const { pid, cmdline, launcher } = recorded;
  const same = () => stillRuns({ pid, cmdline });
  if (!same()) return null;
  // Its launcher still runs (this process's own server, lost track of, is stopped).
  if (launcher && launcher.pid !== process.pid && stillRuns(launcher))
    throw new Error(
      `${name} over this data folder (pid ${pid}) belongs to a launcher that still runs (pid ${launcher.pid}): ` +
        'stop it first, or give this one another DATA_DIR',
    );
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(pid, sig);
    } catch (err) {
      // Gone meanwhile is fine; not ours to signal (another user's) is not.
      if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
    }
  };
  const gone = (message?: () => string) =>
    waitFor(same, (runs) => !runs, LEFT_OVER_GRACE_MS, { intervalMs: 50, message });
  signal('SIGTERM');
  try {
    await gone();
  } catch {
    signal('SIGKILL'); // still running after LEFT_OVER_GRACE_MS
    await gone(() => `${name} left running over this data folder (pid ${pid}) does not stop, even on SIGKILL`);
  }
  return pid;
}
