/** Writes against the real database: grouped inserts (group commit), insertOnce and what a failed insert says. */
import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { connectDatabase } from '../src/storage/connect';
import type { Models } from '../src/storage/models';
import { duplicatePositions, groupInserts, insertOnce, rawCollection } from '../src/storage/writes';
import { type RunOutcomeDoc } from '../src/storage/documents';
import { withDatabase } from './support/stack';
import { connectThroughCutProxy } from './support/cut-proxy';

let db: Connection;
let models: Models;
const uri = withDatabase(process.env.MONGODB_URI!, `m${randomBytes(5).toString('hex')}`);
beforeAll(async () => {
  ({ db, models } = await connectDatabase(uri));
});
afterAll(async () => {
  await db.dropDatabase();
  await db.close();
});
afterEach(() => jest.restoreAllMocks());

const outcome = (id: string): RunOutcomeDoc => ({ _id: id, robotId: 'r', status: 'succeeded', finishedAt: new Date() });
const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

describe('groupInserts', () => {
  it("stores every caller's documents once, in fewer insertMany calls than callers", async () => {
    const insertMany = jest.spyOn(rawCollection(models.RunOutcome), 'insertMany');
    const insert = groupInserts(models.RunOutcome);
    const callers = ids('group', 200).map((id) => [outcome(id), outcome(`${id}-b`)]);
    await Promise.all(callers.map((docs) => insert(docs)));
    const stored = await models.RunOutcome.find({ _id: { $in: callers.flat().map((d) => d._id) } }, { _id: 1 }).lean();
    expect(stored).toHaveLength(400);
    expect(insertMany.mock.calls.length).toBeLessThan(callers.length);
    expect(insertMany.mock.calls.length).toBeGreaterThan(1); // the first went out alone, at once
  });

  it('never puts more than maxDocs documents in one write, unless one caller brings more', async () => {
    const insertMany = jest.spyOn(rawCollection(models.RunOutcome), 'insertMany');
    const insert = groupInserts(models.RunOutcome, 10);
    await Promise.all([...ids('max', 30).map((id) => insert([outcome(id)])), insert(ids('max-big', 25).map(outcome))]);
    const sizes = insertMany.mock.calls.map(([docs]) => (docs as unknown[]).length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(55);
    expect(sizes.every((n) => n <= 10 || n === 25)).toBe(true);
  });

  it('treats a document that is already stored as written (a retried activity), and stores the rest of its group', async () => {
    await models.RunOutcome.create(outcome('dup-0'));
    const insert = groupInserts(models.RunOutcome);
    await Promise.all([
      insert([outcome('dup-first')]),
      insert([outcome('dup-0')]),
      insert([outcome('dup-1')]),
      insert([outcome('dup-2')]),
    ]);
    expect(await models.RunOutcome.countDocuments({ _id: { $in: ['dup-0', 'dup-1', 'dup-2', 'dup-first'] } })).toBe(4);
  });

  it('fails only the caller whose documents cannot be stored', async () => {
    const insert = groupInserts(models.Delivery);
    const huge = { _id: 'huge', note: 'x'.repeat(17 * 1024 * 1024) } as never;
    const results = await Promise.allSettled([
      insert([outcome('first') as never]),
      insert([outcome('ok-1') as never]),
      insert([huge]),
      insert([outcome('ok-2') as never]),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(
      await rawCollection(models.Delivery).countDocuments({ _id: { $in: ['first', 'ok-1', 'ok-2', 'huge'] } }),
    ).toBe(3);
  });
});

describe('duplicatePositions', () => {
  it('gives the positions an insertMany was refused as duplicate keys, the others stored', async () => {
    await models.RunOutcome.create(outcome('pos-1'));
    const docs = ['pos-0', 'pos-1', 'pos-2'].map(outcome);
    const err: unknown = await rawCollection(models.RunOutcome)
      .insertMany(docs, { ordered: false })
      .catch((e: unknown) => e);
    expect(duplicatePositions(err, docs.length)).toEqual(new Set([1]));
  });

  it('is null for a connection lost during the insertMany, which the driver reports with no write errors', async () => {
    const proxied = await connectThroughCutProxy(uri);
    try {
      const docs = ['lost-0', 'lost-1'].map(outcome);
      const cutting = proxied.cutNext('insert', 'run_outcomes');
      const err: unknown = await insertOnce(proxied.models.RunOutcome, docs).catch((e: unknown) => e);
      await cutting;
      expect(err).toMatchObject({ name: 'MongoBulkWriteError', writeErrors: [] });
      expect(duplicatePositions(err, docs.length)).toBeNull();
      await insertOnce(proxied.models.RunOutcome, docs); // the retry
      expect(await models.RunOutcome.countDocuments({ _id: { $in: ['lost-0', 'lost-1'] } })).toBe(2);
    } finally {
      await proxied.close();
    }
  });
});
