/**
 * The database connection every process opens: a mongoose connection, then every collection and
 * index of models.ts made, and what was stored before workspaces moved to `default`
 * (./workspace-migration.ts).
 */
import mongoose, { type Connection } from 'mongoose';
import { createModels, type Models } from './models';
import { migrateToWorkspaces } from './workspace-migration';

const TRANSIENT = /SQLITE_BUSY|database is locked|ECONNREFUSED|server selection|topology/i;

/**
 * A mongoose connection with public options only: no index or collection made behind the code's
 * back (connectDatabase makes them, one at a time). The driver's connection pool looks at itself
 * every 100 ms, its default: the option that slowed it is internal to the driver (no connection
 * string or public option sets it), so it is not set (issue 55).
 */
async function openConnection(uri: string): Promise<Connection> {
  const options = { serverSelectionTimeoutMS: 5000, autoIndex: false, autoCreate: false };
  return mongoose.createConnection(uri, options).asPromise();
}

/**
 * Connects and creates collections and indexes one at a time: FerretDB's SQLite backend can
 * answer SQLITE_BUSY when several are created in parallel (by two processes starting at once),
 * so each step is retried briefly.
 */
export async function connectDatabase(uri: string): Promise<{ db: Connection; models: Models }> {
  const db = await openConnection(uri);
  const models = createModels(db);
  for (const model of Object.values(models)) {
    for (let attempt = 1; ; attempt++) {
      try {
        await model.createCollection().catch((err: { codeName?: string }) => {
          if (err.codeName !== 'NamespaceExists') throw err;
        });
        await model.createIndexes();
        break;
      } catch (err) {
        if (attempt >= 20 || !TRANSIENT.test(String(err))) throw err;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  }
  await migrateToWorkspaces(models);
  return { db, models };
}
