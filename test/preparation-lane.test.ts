/**
 * The worker's lane for stored bodies (src/deliveries/preparation-lane.ts), against the real store:
 * turns in arrival order within PREPARING_BODY_BYTES and LARGE_BODY_PREPARATIONS, inline bodies
 * never waiting, a wait that ends with its attempt, and attempts whose worker stopped counted up to
 * PREPARATION_ATTEMPTS. The whole path, with a worker that runs out of heap, is
 * test/faults/worker-memory.test.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import { PreparationGaveUp, PreparationLane, preparationAttempts } from '../src/deliveries/preparation-lane';
import type { Progress } from '../src/deliveries/progress';
import type { DeliveryInput } from '../src/domain/types';
import { connectDatabase } from '../src/storage/connect';
import type { Models } from '../src/storage/models';
import { waitFor } from '../src/launch/os/wait';
import { withDatabase } from './support/stack';

let db: Connection;
let models: Models;
beforeAll(async () => {
  ({ db, models } = await connectDatabase(
    withDatabase(process.env.MONGODB_URI!, `l${randomBytes(5).toString('hex')}`),
  ));
});
afterAll(async () => {
  await db.dropDatabase();
  await db.close();
});

const progress: Progress = { resumed: undefined, beat: () => undefined };
const limits = { bodyBytes: 10, largeBodies: 2, attempts: 3 };

function input(size: number, kind: 'stored' | 'inline' = 'stored'): DeliveryInput {
  return {
    deliveryId: randomUUID(),
    robotId: 'r',
    triggerIdentifier: 't',
    receivedAt: new Date().toISOString(),
    dedupKey: randomUUID(),
    contentType: null,
    size,
    body: kind === 'stored' ? { kind, chunks: 1 } : { kind, encoding: 'utf8', data: 'x' },
    verified: null,
  };
}

/** A preparation's work that ends when told: `started` once the lane let it begin. */
function heldWork() {
  let end!: () => void;
  let started = false;
  const ended = new Promise<string>((resolve) => (end = () => resolve('done')));
  return {
    work: () => {
      started = true;
      return ended;
    },
    end: () => end(),
    get started() {
      return started;
    },
  };
}

/** Until the lane has let these begin (their attempt counted in the store). */
const started = (...held: Array<{ started: boolean }>) =>
  waitFor(
    () => held.every((h) => h.started),
    (all) => all,
  );

it('lets preparations in by arrival within its bytes and its count; inline bodies never wait', async () => {
  const lane = new PreparationLane(limits, preparationAttempts(models));
  const [a, b, c] = [heldWork(), heldWork(), heldWork()];
  const doneA = lane.prepare(input(6), progress, a.work);
  const doneB = lane.prepare(input(6), progress, b.work);
  // One byte would fit beside the first, but it arrived after the second, which does not.
  const doneC = lane.prepare(input(1), progress, c.work);
  // Turns are given as preparations arrive: the second and third wait in the queue at once.
  expect(lane.state).toEqual({ bytes: 6, running: 1, waiting: 2 });
  await started(a);
  expect([b.started, c.started]).toEqual([false, false]);
  await expect(lane.prepare(input(1_000, 'inline'), progress, () => Promise.resolve('inline'))).resolves.toBe('inline');
  a.end();
  await expect(doneA).resolves.toBe('done');
  await started(b, c);
  expect(lane.state).toEqual({ bytes: 7, running: 2, waiting: 0 });
  b.end();
  c.end();
  await Promise.all([doneB, doneC]);
  // Larger than the whole budget: prepared alone, not refused.
  await expect(lane.prepare(input(100), progress, () => Promise.resolve('alone'))).resolves.toBe('alone');
  expect(lane.state).toEqual({ bytes: 0, running: 0, waiting: 0 });
});

it('counts LARGE_BODY_PREPARATIONS whatever their bytes', async () => {
  const lane = new PreparationLane(limits, preparationAttempts(models));
  const held = [heldWork(), heldWork(), heldWork()];
  const done = held.map((h) => lane.prepare(input(1), progress, h.work));
  expect(lane.state).toEqual({ bytes: 2, running: 2, waiting: 1 });
  await started(held[0], held[1]);
  expect(held[2].started).toBe(false);
  held.forEach((h) => h.end());
  await Promise.all(done);
});

it('a wait ends with its attempt (cancelled), and leaves the queue', async () => {
  const lane = new PreparationLane(limits, preparationAttempts(models));
  const big = heldWork();
  const running = lane.prepare(input(10), progress, big.work);
  const cancel = new AbortController();
  const waiting = lane.prepare(input(5), progress, () => Promise.resolve('never'), cancel.signal);
  expect(lane.state.waiting).toBe(1);
  cancel.abort(new Error('activity cancelled'));
  await expect(waiting).rejects.toThrow('activity cancelled');
  expect(lane.state.waiting).toBe(0);
  big.end();
  await running;
});

it('gives a delivery up once its worker stopped under PREPARATION_ATTEMPTS attempts, not for errors', async () => {
  const delivery = input(1);
  // An attempt that ends with an error (the store down, say) takes its count back.
  const fails = () => Promise.reject(new Error('store down'));
  for (let i = 0; i < 5; i++)
    await expect(
      new PreparationLane(limits, preparationAttempts(models)).prepare(delivery, progress, fails),
    ).rejects.toThrow('store down');
  // Three workers stop under it: each attempt's work never ends (their lanes are gone with them).
  for (let stopped = 0; stopped < 3; stopped++) {
    const attempt = heldWork();
    void new PreparationLane(limits, preparationAttempts(models)).prepare(delivery, progress, attempt.work);
    await started(attempt);
  }
  const next = heldWork();
  await expect(
    new PreparationLane(limits, preparationAttempts(models)).prepare(delivery, progress, next.work),
  ).rejects.toEqual(new PreparationGaveUp(3));
  expect(next.started).toBe(false);
  expect(new PreparationGaveUp(3).message).toMatch(/^over PREPARATION_ATTEMPTS: its worker stopped 3 times/);
});
