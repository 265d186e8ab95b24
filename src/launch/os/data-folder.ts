/**
 * The data folder is the service's own (docs/security.md, Local users): it holds every body, run,
 * step output and secret, in the embedded servers' files and the generated secrets. A launcher
 * closes it before it starts anything: the folder and every folder in it `0700`, every file `0600`
 * (those an earlier version left open too), and a umask of `077`, so that what the launcher, the
 * embedded servers, the receiver and the worker create from then on is theirs alone.
 *
 * One exception: the cluster launcher run as root starts PostgreSQL as the system user `postgres`,
 * which must pass through the data folder to its own (`postgresql/`, which belongs to it): there the
 * data folder is `0711`, which lets others pass through but not list it, and nothing in it is
 * theirs to read. Entries that belong to another user (PostgreSQL's folder) are left as they are.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Closes the data folder to other users (see the module's doc); `othersPassThrough`: 0711 for the folder itself. */
export function closeDataFolder(dataDir: string, { othersPassThrough = false } = {}): void {
  process.umask(0o077);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.chmodSync(dataDir, othersPassThrough ? 0o711 : 0o700);
  const uid = process.getuid?.();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const at = path.join(dir, entry.name);
      const stat = fs.lstatSync(at);
      if (uid !== undefined && stat.uid !== uid) continue;
      if (entry.isDirectory()) {
        fs.chmodSync(at, 0o700);
        walk(at);
      } else if (entry.isFile()) fs.chmodSync(at, 0o600);
    }
  };
  walk(dataDir);
}
