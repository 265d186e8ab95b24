/** The database connection every process opens (src/storage/connect.ts), against the real database. */
import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { POOL_CHECK_MS, connectDatabase } from '../src/storage/connect';
import { withDatabase } from './support/stack';

/** What the driver keeps of each server's pool: internal, read here so a driver that drops the option fails. */
interface DriverInternals {
  topology: { s: { servers: Map<string, { pool: { options: { minPoolSizeCheckFrequencyMS?: number } } }> } };
}

let db: Connection;
const name = `m${randomBytes(5).toString('hex')}`;
beforeAll(async () => {
  ({ db } = await connectDatabase(withDatabase(process.env.MONGODB_URI!, name)));
});
afterAll(async () => {
  await db.dropDatabase();
  await db.close();
});

it('opens the database the URI names, with no index or collection made behind its back', async () => {
  expect(db.name).toBe(name);
  expect(db.config).toMatchObject({ autoIndex: false, autoCreate: false });
  const { ok } = await db.db!.command({ ping: 1 });
  expect(ok).toBe(1);
});

it("has each server's connection pool look at itself every POOL_CHECK_MS, not every 100 ms", () => {
  const { servers } = (db.getClient() as unknown as DriverInternals).topology.s;
  expect(servers.size).toBeGreaterThan(0);
  for (const server of servers.values()) expect(server.pool.options.minPoolSizeCheckFrequencyMS).toBe(POOL_CHECK_MS);
  expect(POOL_CHECK_MS).toBeGreaterThan(100);
});
