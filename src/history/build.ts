/**
 * One step of building a robot's history (the keeper calls these in turn for each robot):
 *
 * 1. `takeSlots`: deliveries whose slots follow the last one taken become entries, and their runs
 *    get ordinals;
 * 2. `placeRuns`: runs are placed into run blocks (id, trigger preview, status `running`), in
 *    ordinal order;
 * 3. `pollOutcomes`: placed runs without an outcome are looked up (oldest first, plus a rotating
 *    share so that no run is starved) and, once finished, counted and updated in their block.
 *
 * Each step does a bounded amount of work, so one robot never holds up another.
 */
import { runIdFor } from '../domain/ids';
import { isDuplicateKeyError, rawCollection, type DeliveryDoc, type Models, type RunOutcomeDoc } from '../models';
import type { SlotDoc } from './documents';
import type { DeliveryEntry, LiveTally } from './live-tally';
import { byId, deleteById, previewPageId, slotId } from './store';
import { addRange, BLOCK_SIZE, removeIndex, type OpenDelivery, type RunSummary } from './tally';

/** Slots read at once while taking new deliveries. */
const SLOT_BATCH = 64;
/** At most this many deliveries are taken per step. */
const TAKE_PER_STEP = 1024;
/** Runs placed per step: 40 preview pages. */
const PLACE_PER_STEP = 2000;
/** Bounds of how many unfinished runs are polled per round, and the rounds per step. */
const POLL_MIN = 32;
const POLL_MAX = 512;
const POLL_ROUNDS = 4;
/** How long a slot may stay unclaimed while later ones are claimed before the keeper closes it. */
export const HOLE_GRACE_MS = 10_000;

export async function takeSlots(models: Models, t: LiveTally): Promise<number> {
  const st = t.state;
  let took = 0;
  // Slots that were claimed before their record was written, oldest first.
  for (const slot of st.pendingSlots.slice(0, SLOT_BATCH)) {
    const claim = await byId<SlotDoc>(models.HistorySlot, slotId(t.robotId, slot));
    const record = claim && (await byId<DeliveryDoc>(models.Delivery, claim.deliveryId));
    if (claim && !record) continue;
    st.pendingSlots = st.pendingSlots.filter((s) => s !== slot);
    if (record?.slot === slot) took += await take(t, record);
    else if (claim) await deleteById(models.HistorySlot, claim._id);
  }
  while (took < TAKE_PER_STEP) {
    const numbers = Array.from({ length: SLOT_BATCH }, (_, i) => st.nextSlot + i);
    const claims = await Promise.all(numbers.map((n) => byId<SlotDoc>(models.HistorySlot, slotId(t.robotId, n))));
    const found = claims.slice(0, claims.indexOf(null) === -1 ? claims.length : claims.indexOf(null)) as SlotDoc[];
    const records = await Promise.all(found.map((c) => (c.deliveryId ? byId<DeliveryDoc>(models.Delivery, c.deliveryId) : null)));
    for (const [i, claim] of found.entries()) {
      const record = records[i];
      if (!claim.deliveryId) continue; // a hole the keeper closed
      if (!record) st.pendingSlots.push(claim.slot);
      else if (record.slot === claim.slot) took += await take(t, record);
      else await deleteById(models.HistorySlot, claim._id); // a retry's second claim: its record names another
    }
    st.nextSlot += found.length;
    if (found.length < SLOT_BATCH) {
      if (found.length === 0 && claims.some((c) => c !== null) && (await closeHole(models, t))) continue;
      break;
    }
  }
  return took;
}

/**
 * A slot nobody claimed while later ones are (a claim whose write failed half way): after
 * HOLE_GRACE_MS the keeper claims it itself with no delivery, so the history goes on. A claim
 * that was only slow then finds the slot taken and moves on to another.
 */
async function closeHole(models: Models, t: LiveTally): Promise<boolean> {
  const slot = t.state.nextSlot;
  const since = t.holes.get(slot) ?? Date.now();
  t.holes.set(slot, since);
  if (Date.now() - since < HOLE_GRACE_MS) return false;
  t.holes.delete(slot);
  try {
    await rawCollection<SlotDoc>(models.HistorySlot).insertOne({ _id: slotId(t.robotId, slot), robotId: t.robotId, slot, deliveryId: '' });
    t.state.nextSlot++;
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err; // claimed after all: taken as usual on the next pass
  }
  return true;
}

async function take(t: LiveTally, record: DeliveryDoc): Promise<number> {
  const st = t.state;
  const entry = st.entries++;
  const { previewsJson: _previews, ...rest } = record;
  const item: DeliveryEntry = { ...rest, firstRun: st.ordinals };
  await t.setItem('deliveries', entry, item);
  st.deliveries[record.outcome]++;
  const at = new Date(record.receivedAt).toISOString();
  if (!st.lastDeliveryAt || at > st.lastDeliveryAt) st.lastDeliveryAt = at;
  if (record.runCount > 0) {
    st.open.push({ deliveryId: record._id, entry, base: st.ordinals, runCount: record.runCount, placed: 0, unfinished: [] });
    st.ordinals += record.runCount;
    t.deliveryDocs.set(record._id, record);
  }
  return 1;
}

/** Trigger previews of one page (50 runs) of a delivery: the first page is on its record. */
async function previewPage(models: Models, record: DeliveryDoc, page: number): Promise<Array<string | null>> {
  if (page === 0) return JSON.parse(record.previewsJson ?? '[]') as Array<string | null>;
  const doc = await byId<{ _id: string; previewsJson: string }>(models.RunPreview, previewPageId(record._id, page));
  return doc ? (JSON.parse(doc.previewsJson) as Array<string | null>) : [];
}

export async function placeRuns(models: Models, t: LiveTally): Promise<number> {
  const st = t.state;
  let placed = 0;
  for (const o of st.open) {
    if (o.placed === o.runCount) continue;
    const record = await t.deliveryDoc(o.deliveryId);
    const createdAt = new Date(record.receivedAt).toISOString();
    while (o.placed < o.runCount && placed < PLACE_PER_STEP) {
      const page = Math.floor(o.placed / BLOCK_SIZE);
      const previews = await previewPage(models, record, page);
      const end = Math.min(o.runCount, (page + 1) * BLOCK_SIZE);
      for (let i = o.placed; i < end; i++) {
        const run: RunSummary = {
          id: runIdFor(o.deliveryId, i),
          deliveryId: o.deliveryId,
          status: 'running',
          createdAt,
          finishedAt: null,
          trigger: previews[i % BLOCK_SIZE] ?? null,
        };
        await t.setItem('runs', o.base + i, run);
      }
      addRange(o.unfinished, o.placed, end);
      placed += end - o.placed;
      o.placed = end;
      st.placedThrough = o.base + end;
    }
    if (o.placed < o.runCount) break; // placing goes in ordinal order
    t.deliveryDocs.delete(o.deliveryId);
  }
  return placed;
}

export async function pollOutcomes(models: Models, t: LiveTally): Promise<number> {
  let finished = 0;
  for (let round = 0; round < POLL_ROUNDS; round++) {
    const candidates = pollCandidates(t);
    if (candidates.length === 0) break;
    const outcomes = await Promise.all(
      candidates.map(([o, i]) => byId<RunOutcomeDoc>(models.RunOutcome, runIdFor(o.deliveryId, i))),
    );
    let hits = 0;
    for (const [n, outcome] of outcomes.entries()) {
      if (!outcome) continue;
      const [o, i] = candidates[n]!;
      if (!o.unfinished.some(([from, to]) => i >= from && i < to)) continue; // polled twice in one round
      hits++;
      const run = (await t.item<RunSummary>('runs', o.base + i))!;
      await t.setItem('runs', o.base + i, { ...run, status: outcome.status, finishedAt: new Date(outcome.finishedAt).toISOString() });
      t.state[outcome.status]++;
      removeIndex(o.unfinished, i);
    }
    finished += hits;
    t.state.open = t.state.open.filter((o) => o.placed < o.runCount || o.unfinished.length > 0);
    // Widen the window while most polled runs have finished, narrow it while few have.
    if (hits * 2 >= candidates.length) t.window = Math.min(POLL_MAX, t.window * 2);
    else if (hits * 10 < candidates.length) t.window = Math.max(POLL_MIN, Math.floor(t.window / 2));
    if (hits * 2 < candidates.length) break;
  }
  return finished;
}

/** Unfinished runs from the `skip`-th on, oldest first (skipping costs one step per range). */
function* unfinishedFrom(t: LiveTally, skip: number): Generator<[OpenDelivery, number]> {
  for (const o of t.state.open) {
    for (const [from, to] of o.unfinished) {
      if (skip >= to - from) {
        skip -= to - from;
        continue;
      }
      for (let i = from + skip; i < to; i++) yield [o, i];
      skip = 0;
    }
  }
}

function firstOf<T>(items: Iterable<T>, n: number): T[] {
  const out: T[] = [];
  if (n <= 0) return out;
  for (const item of items) {
    out.push(item);
    if (out.length >= n) break;
  }
  return out;
}

/** The oldest unfinished runs (half the window) and as many from a rotating position after them. */
function pollCandidates(t: LiveTally): Array<[OpenDelivery, number]> {
  const half = Math.max(1, Math.floor(t.window / 2));
  const oldest = firstOf(unfinishedFrom(t, 0), half);
  const total = t.state.open.reduce((sum, o) => sum + o.unfinished.reduce((s, [from, to]) => s + to - from, 0), 0);
  if (total <= half) return oldest;
  const skip = half + (t.rotation % (total - half));
  const rotating = firstOf(unfinishedFrom(t, skip), half);
  t.rotation = skip - half + rotating.length;
  return [...oldest, ...rotating];
}
