/**
 * One step of building a robot's history (the keeper calls these in turn for each robot):
 *
 * 1. `takeSlots`: deliveries whose slots follow the last one taken become entries, and their runs
 *    get ordinals;
 * 2. `placeRuns`: runs are placed into run blocks (id, trigger preview, status `running`), in
 *    ordinal order;
 * 3. `pollOutcomes` (outcomes.ts): placed runs that ended are counted and updated in their block.
 *
 * Each step does a bounded amount of work, so one robot never holds up another, and each read is
 * likely to find something: an idle robot costs one read per step, a finished run about one.
 */
import { runIdFor } from '../domain/ids';
import { isDuplicateKeyError, rawCollection } from '../storage/writes';
import { type DeliveryDoc } from '../storage/documents';
import { type Models } from '../storage/models';
import type { SlotDoc } from '../storage/history-documents';
import type { DeliveryEntry, LiveTally } from './live-tally';
import { previewPageId, slotId } from './store';
import { byId } from '../storage/by-id';
import { addRange, countDelivery, type RunSummary } from './tally';
import type { HeardRecords } from './heard-records';
import { BLOCK_SIZE, PLACE_PER_STEP, SLOT_BATCH, TAKE_PER_STEP } from '../domain/limits';

/** How long a slot may stay unclaimed while later ones are claimed before the keeper closes it. */
const HOLE_GRACE_MS = 10_000;
/** How often slots past an unclaimed next slot are looked at for a claimed one (a hole). */
const HOLE_PROBE_MS = 5000;
/**
 * Which slots past the next one are looked at: the first four every HOLE_PROBE_MS (a hole is nearly
 * always one failed claim), and powers of two up to 512 every HOLE_PROBE_FAR_MS.
 */
const HOLE_PROBE_NEAR = [1, 2, 3, 4];
const HOLE_PROBE_FAR = [...HOLE_PROBE_NEAR, 8, 16, 32, 64, 128, 256, 512];
const HOLE_PROBE_FAR_MS = 60_000;

/**
 * How long the keeper reads a claimed slot's record at every look (and looks at its robot every
 * 250 ms for it) before it reads it once a minute only. A record comes within seconds of its
 * claim, or with the retry of an activity that died in between (which names another slot, so the
 * claim is skipped). One that has not come in ten minutes most likely never will: a receiver
 * killed, or cut off from the store, between the claim and the record of a forgery, duplicate or
 * handshake, or a store that lost a write it acknowledged (docs/operations.md). Such a slot would
 * otherwise keep its robot looked at every 250 ms for good, and SLOT_BATCH of them would hold up
 * every younger one; a record that does come late is still taken, within a minute
 * (PENDING_LATE_READ_MS, or the robot's quiet look).
 */
export const PENDING_PATIENCE_MS = 10 * 60_000;
/** How often slots waited on past the patience are read while their robot is not quiet (it may never be). */
const PENDING_LATE_READ_MS = 60_000;

interface TakeOptions {
  /** A quiet robot's look (keeper.ts): one slot past an empty next one is probed for a hole (claimedAhead). */
  quiet?: boolean;
  /** PENDING_PATIENCE_MS, for a test. */
  patienceMs?: number;
  /** Records this process stored (./heard-records.ts): their claim and record are not read. */
  heard?: HeardRecords;
}

/** A slot's claim and record: heard in this process, else read (the record only once claimed). */
async function claimAndRecord(
  models: Models,
  robotId: string,
  slot: number,
  heard: HeardRecords | undefined,
): Promise<{ claim: SlotDoc | null; record: DeliveryDoc | null }> {
  const known = heard?.take(robotId, slot);
  if (known) return { claim: { _id: slotId(robotId, slot), robotId, slot, deliveryId: known._id }, record: known };
  const claim = await byId<SlotDoc>(models.HistorySlot, slotId(robotId, slot));
  const record = claim?.deliveryId ? await byId<DeliveryDoc>(models.Delivery, claim.deliveryId) : null;
  return { claim, record };
}

/** Takes the slots that follow the last one taken, and those whose record has come since. */
export async function takeSlots(models: Models, t: LiveTally, opts: TakeOptions = {}): Promise<number> {
  const { quiet = false, patienceMs = PENDING_PATIENCE_MS } = opts;
  const st = t.state;
  let took = 0;
  // Slots that were claimed before their record was written.
  for (const slot of pendingToRead(t, quiet, patienceMs)) {
    const { claim, record } = await claimAndRecord(models, t.robotId, slot, opts.heard);
    if (claim && !record) continue;
    st.pendingSlots = st.pendingSlots.filter((s) => s !== slot);
    t.pendingSince.delete(slot);
    // A claim whose record names another slot (a retry's second claim) is skipped and kept: see below.
    if (record?.slot === slot) took += await take(t, record);
  }
  // One slot first (an idle robot costs one read), then twice as many each time all were claimed,
  // up to SLOT_BATCH: a look reads about as many slots as have come since the last.
  for (let batch = 1; took < TAKE_PER_STEP; batch = Math.min(2 * batch, SLOT_BATCH)) {
    const numbers = Array.from({ length: batch }, (_, i) => st.nextSlot + i);
    const read = await Promise.all(numbers.map((n) => claimAndRecord(models, t.robotId, n, opts.heard)));
    const end = read.findIndex((r) => r.claim === null);
    const found = read.slice(0, end === -1 ? read.length : end) as Array<{
      claim: SlotDoc;
      record: DeliveryDoc | null;
    }>;
    for (const { claim, record } of found) {
      if (!claim.deliveryId) continue; // a hole the keeper closed
      if (!record) st.pendingSlots.push(claim.slot);
      else if (record.slot === claim.slot) took += await take(t, record);
      // Else a retry's second claim: its record names another slot. It is skipped, and kept: every slot
      // below `nextSlot` must stay claimed, or a recorder looking for the first free slot (slots.ts) could
      // claim it again, behind the keeper, and that delivery would never be taken (seen with two workers).
    }
    st.nextSlot += found.length;
    if (found.length < batch) {
      if (found.length === 0 && (await claimedAhead(models, t, quiet)) && (await closeHole(models, t))) continue;
      break;
    }
  }
  return took;
}

/**
 * The pending slots a look reads, SLOT_BATCH at most: those waited on for less than the patience,
 * oldest first, and the older ones in turns, at a quiet look or once every PENDING_LATE_READ_MS.
 */
function pendingToRead(t: LiveTally, quiet: boolean, patienceMs: number): number[] {
  const now = Date.now();
  const fresh: number[] = [];
  const stale: number[] = [];
  for (const slot of t.state.pendingSlots) {
    if (!t.pendingSince.has(slot)) t.pendingSince.set(slot, now);
    (awaited(t, slot, now, patienceMs) ? fresh : stale).push(slot);
  }
  if (stale.length === 0 || (!quiet && now < t.staleReadAt)) return fresh.slice(0, SLOT_BATCH);
  t.staleReadAt = now + PENDING_LATE_READ_MS;
  const from = t.staleTurn % stale.length;
  t.staleTurn = from + SLOT_BATCH;
  return [...fresh, ...stale.slice(from), ...stale.slice(0, from)].slice(0, SLOT_BATCH);
}

/** Whether a pending slot has been waited on for less than the patience (one not seen yet has). */
const awaited = (t: LiveTally, slot: number, now: number, patienceMs: number) =>
  now - (t.pendingSince.get(slot) ?? now) < patienceMs;

/** How many pending slots are waited on for less than the patience: each keeps its robot looked at every 250 ms. */
export function awaitedRecords(t: LiveTally, patienceMs = PENDING_PATIENCE_MS): number {
  const now = Date.now();
  return t.state.pendingSlots.filter((s) => awaited(t, s, now, patienceMs)).length;
}

/**
 * Whether a slot past the unclaimed next one is claimed, so the next one is a hole. Looked at
 * every HOLE_PROBE_MS (holes are rare; the next slot is read every step anyway), and at every step
 * once a hole is being waited on. A quiet robot's look reads only the slot after: the claims after
 * a hole mark the robot, which wakes it to the probes above, so a quiet look finds only a hole
 * whose later claims' marks were all lost, nearly always one failed claim.
 */
async function claimedAhead(models: Models, t: LiveTally, quiet: boolean): Promise<boolean> {
  if (t.holes.has(t.state.nextSlot)) return true;
  if (quiet) return (await byId<SlotDoc>(models.HistorySlot, slotId(t.robotId, t.state.nextSlot + 1))) !== null;
  if (Date.now() < t.holeProbeAt) return false;
  t.holeProbeAt = Date.now() + HOLE_PROBE_MS;
  const far = Date.now() >= t.farProbeAt;
  if (far) t.farProbeAt = Date.now() + HOLE_PROBE_FAR_MS;
  const ids = (far ? HOLE_PROBE_FAR : HOLE_PROBE_NEAR).map((d) => slotId(t.robotId, t.state.nextSlot + d));
  return (await Promise.all(ids.map((id) => byId<SlotDoc>(models.HistorySlot, id)))).some((c) => c !== null);
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
    await rawCollection<SlotDoc>(models.HistorySlot).insertOne({
      _id: slotId(t.robotId, slot),
      robotId: t.robotId,
      slot,
      deliveryId: '',
    });
    t.state.nextSlot++;
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err; // claimed after all: taken as usual on the next pass
  }
  return true;
}

async function take(t: LiveTally, record: DeliveryDoc): Promise<number> {
  const st = t.state;
  const entry = st.entries++;
  // The log lists none of these: a page of it stays small (the fields and the request are read from the record).
  const { previewsJson: _previews, fieldsJson: _fields, requestJson: _request, ...rest } = record;
  const item: DeliveryEntry = { ...rest, firstRun: st.ordinals };
  await t.setItem('deliveries', entry, item);
  countDelivery(st, record.outcome, 1);
  const at = new Date(record.receivedAt).toISOString();
  if (!st.lastDeliveryAt || at > st.lastDeliveryAt) st.lastDeliveryAt = at;
  if (record.runCount > 0) {
    st.open.push({
      deliveryId: record._id,
      entry,
      base: st.ordinals,
      runCount: record.runCount,
      placed: 0,
      unfinished: [],
    });
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
          ...(record.test ? { test: true as const } : {}),
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
