/**
 * Whether a TCP port can be listened on, and if not, what holds it: the listening socket found in
 * /proc/net/tcp and tcp6, and the process whose open files include it (only this user's processes
 * can be read; another user's is named as such). Linux only; elsewhere the holder is unknown.
 */
import fs from 'node:fs';
import net from 'node:net';

/** Resolves with the error code when `port` cannot be listened on at `host` (every address when undefined). */
export function listenProblem(port: number, host: string | undefined): Promise<string | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(null)));
  });
}

/** The inodes of the sockets listening on `port`, on any address. */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let table: string;
    try {
      table = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of table.trim().split('\n').slice(1)) {
      const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
      // 0A: LISTEN
      if (state === '0A' && parseInt(local.split(':')[1], 16) === port) inodes.add(inode);
    }
  }
  return inodes;
}

/** The command line of a process, as `ps` would show it (its first 120 characters). */
function commandLine(pid: string): string {
  const words = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  const line = words.join(' ');
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

/**
 * What holds `port`: "pid 1234 (temporal server start-dev ...)", "a process of another user", or
 * null when no listening socket is found (not Linux, or the port is taken some other way).
 */
export function portHolder(port: number): string | null {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return null;
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return null;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // another user's, or gone
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) {
        try {
          return `pid ${pid} (${commandLine(pid)})`;
        } catch {
          return `pid ${pid}`;
        }
      }
    }
  }
  return 'a process of another user';
}
