/** Writes against the real database: grouped inserts (group commit), insertOnce and what a failed insert says. */
import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import { connectDatabase } from '../src/storage/connect';
import type { Models } from '../src/storage/models';
import { duplicatePositions, groupInserts, insertOnce, rawCollection, SharedDeadline } from '../src/storage/writes';
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

describe('a write whose connection stops being read (the store died while reading it)', () => {
  /** Short, so the test does not wait STORE_INSERT_DEADLINE_MS; the behaviour is the same. */
  const deadline = new SharedDeadline(2000);
  /** Larger than a socket's buffers, so the driver is left waiting for its write to drain. */
  const large = (prefix: string) => ids(prefix, 40).map((id) => ({ ...outcome(id), note: 'x'.repeat(100_000) }));

  it('fails at its deadline instead of waiting forever, and its retry stores it', async () => {
    const proxied = await connectThroughCutProxy(uri);
    try {
      const docs = large('stalled');
      const stalling = proxied.stallNext('insert', 'run_outcomes');
      const err: unknown = await insertOnce(proxied.models.RunOutcome, docs, deadline).catch((e: unknown) => e);
      await stalling;
      expect(String(err)).toMatch(/the store did not answer within 2000 ms/);
      await insertOnce(proxied.models.RunOutcome, docs, deadline); // the retry, on another connection
      expect(await models.RunOutcome.countDocuments({ _id: { $in: docs.map((d) => d._id) } })).toBe(docs.length);
    } finally {
      await proxied.close();
    }
  });

  it('holds the grouped inserts behind it only until its deadline: every caller is stored', async () => {
    const proxied = await connectThroughCutProxy(uri);
    try {
      const insert = groupInserts(proxied.models.RunOutcome, 500, deadline);
      const stalling = proxied.stallNext('insert', 'run_outcomes');
      const first = large('group-stalled');
      const behind = ids('group-behind', 20).map((id) => [outcome(id)]);
      await Promise.all([insert(first), ...behind.map((docs) => insert(docs)), stalling]);
      const all = [...first, ...behind.flat()].map((d) => d._id);
      expect(await models.RunOutcome.countDocuments({ _id: { $in: all } })).toBe(all.length);
    } finally {
      await proxied.close();
    }
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
