/**
 * The database connection every process opens: a driver client whose pool looks at itself every
 * POOL_CHECK_MS, handed to mongoose, then every collection and index of models.ts made, and what
 * was stored before workspaces moved to `default` (./workspace-migration.ts).
 */
import mongoose, { type Connection } from 'mongoose';
import { createModels, type Models } from './models';
import { migrateToWorkspaces } from './workspace-migration';

const TRANSIENT = /SQLITE_BUSY|database is locked|ECONNREFUSED|server selection|topology/i;

/**
 * How often the MongoDB driver's connection pool looks at itself (closes connections of an older
 * generation, tops the pool up to `minPoolSize`, 0 here). The driver's default, 100 ms, is an
 * internal option no connection string or public option sets, and it wakes an idle process ten
 * times a second: with it and the event-loop sampling (EVENT_LOOP_SAMPLE_MS) at 100 ms, an idle
 * receiver spent 3.1–3.5 ms of CPU a second, and 0.7–0.8 with both at 1 s (measured 2026-11-26
 * here). A connection a failover left stale is also closed when it is next checked out, so the
 * slower look delays nothing a request waits for.
 */
export const POOL_CHECK_MS = 1000;

/**
 * A mongoose connection on a driver client whose pool looks at itself every POOL_CHECK_MS (set on
 * the client's options before it connects, where the driver's pools read it).
 */
async function openConnection(uri: string): Promise<Connection> {
  const client = new mongoose.mongo.MongoClient(uri, {
    serverSelectionTimeoutMS: 5000,
    driverInfo: { name: 'Mongoose', version: mongoose.version },
  });
  Object.assign(client.options, { minPoolSizeCheckFrequencyMS: POOL_CHECK_MS });
  await client.connect();
  const db = mongoose.createConnection().setClient(client);
  Object.assign(db.config, { autoIndex: false, autoCreate: false });
  return db;
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
