/**
 * The `_id` index of the embedded FerretDB. FerretDB v1.24 on SQLite turns a filter that is
 * exactly `{ _id: value }` into `WHERE _ferretdb_sjson->'$._id' = ?`, but the indexes it makes are
 * on another expression, so that lookup scans the whole table. scripts/sqlite-tune (built by
 * scripts/binaries.sh) adds an index on exactly that expression to every collection's table; the
 * service reads its history only by `_id`, so with it every read is an index search.
 *
 * Indexes live in the database file, so they survive restarts; adding them again does nothing.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { connectDatabase } from '../../storage/connect';

/** The SQLite file FerretDB keeps a database in (startFerretDb's `--sqlite-url`). */
export function ferretDbFile(dataDir: string, dbName: string): string {
  return path.join(dataDir, 'ferretdb', `${dbName}.sqlite`);
}

export async function indexFerretDb(bin: string, file: string): Promise<void> {
  if (!fs.existsSync(file)) throw new Error(`no FerretDB database at ${file}`);
  await new Promise<void>((resolve, reject) =>
    execFile(bin, ['ferretdb-id-index', file], (err, _out, stderr) =>
      err ? reject(new Error(`sqlite-tune: ${stderr || err.message}`)) : resolve(),
    ),
  );
}

/**
 * Creates the service's collections in the embedded FerretDB (through the driver, as the service
 * would) and then indexes them: the launcher does this before it starts the receiver and worker.
 */
export async function prepareEmbeddedStore(
  uri: string,
  o: { indexBin: string; dataDir: string; dbName: string },
): Promise<void> {
  const { db } = await connectDatabase(uri);
  await db.close();
  await indexFerretDb(o.indexBin, ferretDbFile(o.dataDir, o.dbName));
}
