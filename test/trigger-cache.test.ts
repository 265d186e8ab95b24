/**
 * Made-up identifiers cost no database read each and never push a real trigger out of the cache; an
 * expired trigger is read once however many lookups wait for it.
 */
import { randomUUID } from 'node:crypto';
import { startStack, type Stack } from './support/stack';
import { waitFor } from '../src/launch/os/wait';
import { STAMP_POLL_MS, TriggerCache, type TriggerCacheOptions } from '../src/receiver/trigger-cache';
import { triggerLoad } from '../src/receiver/trigger-load';
import { triggerTakesDeliveries } from '../src/deliveries/webhook-trigger';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ TRIGGER_CACHE_TTL_MS: '60000' }, { worker: false });
});
afterAll(() => stack.close());

it('answers a spray of unknown identifiers with 404 and at most one read of the robots', async () => {
  const robot = await stack.robotAtWork();
  const base = robot.webhookUrl.slice(0, robot.webhookUrl.indexOf('/api/webhooks/'));
  // The real trigger is looked up once and cached.
  expect((await stack.send('POST', robot.webhookUrl, '')).status).toBe(200);
  const find = jest.spyOn(stack.models.Robot, 'find');
  const findOne = jest.spyOn(stack.models.Robot, 'findOne');
  try {
    for (let i = 0; i < 300; i++) {
      const res = await stack.send('POST', `${base}/api/webhooks/custom:${randomUUID()}/t${i}`, '{}');
      expect(res.status).toBe(404);
    }
    expect(find.mock.calls.length + findOne.mock.calls.length).toBeLessThanOrEqual(1);
    // And the real trigger is still served from the cache: no read at all.
    const reads = find.mock.calls.length + findOne.mock.calls.length;
    expect((await stack.send('POST', robot.webhookUrl, '')).status).toBe(200);
    expect(find.mock.calls.length + findOne.mock.calls.length).toBe(reads);
  } finally {
    find.mockRestore();
    findOne.mockRestore();
  }
});

it('knows a robot put to work through this receiver at once', async () => {
  const robot = await stack.robotAtWork();
  expect((await stack.send('POST', robot.webhookUrl, '')).status).toBe(200);
  await stack.client.call('stop', { params: { id: robot.robotId } });
  expect((await stack.send('POST', robot.webhookUrl, '')).status).toBe(404);
});

it('answers a robot put to work, or a token rotated, through another receiver at once', async () => {
  const other = await stack.addReceiver();
  const onOther = (url: string) => other + new URL(url).pathname;
  // The other receiver has read the set of triggers (a 60-second TTL here) before the robot exists.
  expect((await stack.send('POST', `${other}/api/webhooks/custom:${randomUUID()}/t`, '{}')).status).toBe(404);
  const robot = await stack.robotAtWork();
  expect((await stack.send('POST', onOther(robot.webhookUrl), '')).status).toBe(200);
  // Its token rotated through the first receiver: the other takes the new one at once.
  const rotated = await stack.client.call('rotateToken', { params: { id: robot.robotId }, body: { graceHours: 0 } });
  expect((await stack.send('POST', onOther(rotated.trigger.card!.webhookUrl!), '')).status).toBe(200);
});

it('takes a stop, a pause or a revoked token made through another receiver within a second, not after the TTL', async () => {
  const other = await stack.addReceiver();
  const onOther = (url: string) => other + new URL(url).pathname;
  const robot = await stack.robotAtWork();
  // The other receiver serves the robot, and would keep it for its 60-second TTL: each change below
  // must reach it by the stamp it reads once what it saw is STAMP_POLL_MS old, long before.
  expect((await stack.send('POST', onOther(robot.webhookUrl), '')).status).toBe(200);
  const answersOnOther = (url: string) => async () => (await stack.send('POST', onOther(url), '')).status;
  // Revoked: rotated with no grace through the first receiver.
  await stack.client.call('rotateToken', { params: { id: robot.robotId }, body: { graceHours: 0 } });
  await waitFor(answersOnOther(robot.webhookUrl), (status) => status === 404, 20_000);
  // Stopped through the first receiver.
  const webhookUrl = (await stack.client.call('getRobot', { params: { id: robot.robotId } })).trigger.card!.webhookUrl!;
  expect((await stack.send('POST', onOther(webhookUrl), '')).status).toBe(200);
  await stack.client.call('stop', { params: { id: robot.robotId } });
  await waitFor(answersOnOther(webhookUrl), (status) => status === 404, 20_000);
});

/** A receiver's trigger cache on a clock of the test's own, and the identifier of a robot's URL. */
function cacheOnClock(options: TriggerCacheOptions = {}) {
  const clock = { now: 1_000_000 };
  const cache = new TriggerCache(stack.models, stack.config.secretsKeys, 60_000, { now: () => clock.now, ...options });
  return { clock, cache };
}
const identifierOf = (webhookUrl: string) => decodeURIComponent(new URL(webhookUrl).pathname.split('/')[3]);
const takes = async (cache: TriggerCache, identifier: string) => {
  const trigger = await cache.lookup(identifier);
  return trigger !== null && triggerTakesDeliveries(trigger);
};

it('reads the stamp only for lookups: a change elsewhere is seen once the stamp is a second old', async () => {
  const robot = await stack.robotAtWork();
  const identifier = identifierOf(robot.webhookUrl);
  const { clock, cache } = cacheOnClock();
  const reads = jest.spyOn(stack.models.TriggerChange.collection, 'findOne');
  try {
    expect(await takes(cache, identifier)).toBe(true);
    const first = reads.mock.calls.length;
    // Stopped through another receiver (the stack's), which moves the stamp.
    await stack.client.call('stop', { params: { id: robot.robotId } });
    // The stamp it saw is under half STAMP_POLL_MS old: served from the cache, no read.
    clock.now += STAMP_POLL_MS / 2 - 1;
    expect(await takes(cache, identifier)).toBe(true);
    expect(reads.mock.calls.length).toBe(first);
    // Past half of it: still served at once, and the stamp is read in the background.
    clock.now += 1;
    expect(await takes(cache, identifier)).toBe(true);
    expect(reads.mock.calls.length).toBe(first + 1);
    await waitFor(
      () => takes(cache, identifier),
      (taken) => !taken,
      10_000,
    );
    // Put to work again elsewhere, then nothing for a while (no read meanwhile: there is no timer),
    // then a lookup a second later waits for the stamp and sees the change.
    await stack.client.call('start', { params: { id: robot.robotId } });
    const quiet = reads.mock.calls.length;
    clock.now += STAMP_POLL_MS;
    expect(await takes(cache, identifier)).toBe(true);
    expect(reads.mock.calls.length).toBeGreaterThan(quiet);
  } finally {
    reads.mockRestore();
  }
});

it('serves cached triggers without waiting while the stamp cannot be read', async () => {
  const robot = await stack.robotAtWork();
  const identifier = identifierOf(robot.webhookUrl);
  const { clock, cache } = cacheOnClock();
  expect(await takes(cache, identifier)).toBe(true);
  const reads = jest.spyOn(stack.models.TriggerChange.collection, 'findOne');
  try {
    // The store fails the read a lookup waits for: the lookup is answered from the cache.
    reads.mockRejectedValueOnce(new Error('the store is not answering'));
    clock.now += STAMP_POLL_MS;
    expect(await takes(cache, identifier)).toBe(true);
    // Then a read that never ends: the next lookup does not wait for it (it would hang here).
    reads.mockReturnValueOnce(new Promise(() => undefined));
    clock.now += STAMP_POLL_MS;
    expect(await takes(cache, identifier)).toBe(true);
    expect(reads).toHaveBeenCalledTimes(2);
  } finally {
    reads.mockRestore();
  }
});

/** The store's own read of a trigger, counted; `held` keeps each read's answer until the test lets it go. */
function countedLoad(opts: { held?: boolean; failFirst?: boolean } = {}) {
  const read = triggerLoad(stack.models, stack.config.secretsKeys);
  const counted = { loads: 0, release: [] as Array<() => void> };
  const load = async (identifier: string) => {
    const n = ++counted.loads;
    if (opts.failFirst && n === 1) throw new Error('the store is not answering');
    const trigger = await read(identifier);
    if (opts.held) await new Promise<void>((resolve) => counted.release.push(resolve));
    return trigger;
  };
  return { counted, load };
}

it('reads an expired trigger once however many lookups wait for it', async () => {
  const robot = await stack.robotAtWork();
  const identifier = identifierOf(robot.webhookUrl);
  const { counted, load } = countedLoad();
  const { clock, cache } = cacheOnClock({ load });
  expect(await takes(cache, identifier)).toBe(true);
  expect(counted.loads).toBe(1);
  // Expired: 64 lookups at once, as 64 connections' deliveries to one URL, share one read.
  clock.now += 60_000;
  const found = await Promise.all(Array.from({ length: 64 }, () => cache.lookup(identifier)));
  expect(found.every((t) => t?.robotId === robot.robotId)).toBe(true);
  expect(counted.loads).toBe(2);
  // And it is kept: no read for the next lookup.
  expect(await takes(cache, identifier)).toBe(true);
  expect(counted.loads).toBe(2);
});

it('fails only the lookups that waited for a failed read, and keeps nothing of it', async () => {
  const robot = await stack.robotAtWork();
  const identifier = identifierOf(robot.webhookUrl);
  const { counted, load } = countedLoad({ failFirst: true });
  const { cache } = cacheOnClock({ load });
  const waited = await Promise.allSettled(Array.from({ length: 8 }, () => cache.lookup(identifier)));
  expect(waited.map((w) => w.status)).toEqual(Array(8).fill('rejected'));
  expect(counted.loads).toBe(1);
  // The next lookup reads again, and is answered.
  expect(await takes(cache, identifier)).toBe(true);
  expect(counted.loads).toBe(2);
});

it('keeps nothing of a read under way when its robot is stopped through this receiver', async () => {
  const robot = await stack.robotAtWork();
  const identifier = identifierOf(robot.webhookUrl);
  const { counted, load } = countedLoad({ held: true });
  const { cache } = cacheOnClock({ load });
  // A lookup reads the robot at work, and its answer is held back.
  const before = cache.lookup(identifier);
  await waitFor(
    () => counted.release.length,
    (held) => held === 1,
    10_000,
  );
  // Stopped in the store, then forgotten here, as the stop route does.
  await stack.client.call('stop', { params: { id: robot.robotId } });
  await cache.forget(identifier);
  // A lookup now does not wait for the read under way: it reads again and sees the stop.
  const after = cache.lookup(identifier);
  await waitFor(
    () => counted.release.length,
    (held) => held === 2,
    10_000,
  );
  const taken = (t: Awaited<typeof before>) => t !== null && triggerTakesDeliveries(t);
  counted.release[1]();
  expect(taken(await after)).toBe(false);
  // The first read ends last, with the robot at work: its own lookup is answered so, and it is not kept.
  counted.release[0]();
  expect(taken(await before)).toBe(true);
  expect(await takes(cache, identifier)).toBe(false);
  expect(counted.loads).toBe(2);
});
