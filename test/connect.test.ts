/** The database connection every process opens (src/storage/connect.ts), against the real database. */
import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { connectDatabase } from '../src/storage/connect';
import { withDatabase } from './support/stack';

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
