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
  fs.writeFileSync(pidFile, record);
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
 * Throws if its launcher still runs.
 */
export async function stopLeftOver(pidFile: string, name: string): Promise<number | null> {
  let recorded: Recorded;
  try {
    recorded = JSON.parse(fs.readFileSync(pidFile, 'utf8')) as Recorded;
  } catch {
    return null; // none recorded, or a file cut short: nothing is trusted
  }
  const { pid, launcher } = recorded;
  const same = () => stillRuns(recorded);
  if (!same()) return null;
  if (launcher && stillRuns(launcher))
    throw new Error(
      `${name} over this data folder (pid ${pid}) belongs to a launcher that still runs (pid ${launcher.pid}): ` +
        'stop it first, or give this one another DATA_DIR',
    );
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(pid, sig);
    } catch {
      // exited meanwhile
    }
  };
  signal('SIGTERM');
  const killAt = Date.now() + LEFT_OVER_GRACE_MS;
  while (same()) {
    if (Date.now() >= killAt) signal('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return pid;
}
