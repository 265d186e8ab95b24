/**
 * Retention: runs, their step results and outcomes, and deliveries older than HISTORY_RETENTION
 * (default 30 days) are removed, oldest first, by the history keeper, a bounded number per step.
 * The robot's counts drop with what is removed, so they always describe what is kept. A delivery
 * whose runs have not all finished is kept until they have. A delivery's kept raw body goes with
 * the last of the deliveries that keep it (its own, and the replays that refer to it:
 * src/storage/body-refs.ts).
 */
import { discardBlob, outputBlobId, triggerBlobId } from '../storage/blobs';
import { releaseBody } from '../storage/body-refs';
import type { Models } from '../storage/models';
import type { DeliveryDoc, RunDoc, RunOutcomeDoc, StepResultDoc } from '../storage/documents';
import { slotId, blockId, finalBlockId, previewPageId } from './store';
import { byId, deleteById } from '../storage/by-id';
import type { DeliveryEntry, LiveTally } from './live-tally';
import { blockOf, countDelivery, type RunSummary } from './tally';
import { BLOCK_SIZE, REMOVE_PER_STEP_BUSY, REMOVE_PER_STEP_IDLE } from '../domain/limits';

/** Removes what a run stored: its trigger data, step results (with large outputs), outcome and preview page. */
async function removeRun(
  models: Models,
  run: RunSummary,
  index: number,
  stepCount: number,
  lastOfDelivery: boolean,
): Promise<void> {
  const stored = await byId<RunDoc>(models.Run, run.id);
  if (stored && 'chunks' in stored.trigger) await discardBlob(models, triggerBlobId(run.id), stored.trigger.chunks);
  const outcome = await byId<RunOutcomeDoc>(models.RunOutcome, run.id);
  for (let step = 0; step < stepCount; step++) {
    const result = (await byId<StepResultDoc>(models.StepResult, `${run.id}:${step}`)) ?? null;
    // The step that ended the run is kept on its outcome (since 0.5).
    const output = result?.output ?? (outcome?.endingStep?.index === step ? outcome.endingStep.output : undefined);
    if (output && 'chunks' in output) await discardBlob(models, outputBlobId(run.id, step), output.chunks);
    if (result) await deleteById(models.StepResult, result._id);
  }
  await deleteById(models.RunOutcome, run.id);
  await deleteById(models.Run, run.id);
  if (index > 0 && (index % BLOCK_SIZE === BLOCK_SIZE - 1 || lastOfDelivery)) {
    await deleteById(models.RunPreview, previewPageId(run.deliveryId, Math.floor(index / BLOCK_SIZE)));
  }
}

/**
 * Removes expired history, a bounded amount; returns how many runs and deliveries it removed. Only
 * deliveries whose slots the stored tally passed RETENTION_SLOT_LAG_MS ago (`removableBelow`): a
 * recorder claims from the stored tally's next slot, or from where it last claimed for SLOT_HINT_MS
 * (slots.ts), so a slot freed sooner could be claimed again behind the keeper, and that delivery
 * would never be listed.
 */
export async function removeExpired(models: Models, t: LiveTally, retentionMs: number): Promise<number> {
  const removableBelow = t.removableBelow();
  const st = t.state;
  const cutoff = new Date(Date.now() - retentionMs).toISOString();
  let budget = st.open.length > 0 ? REMOVE_PER_STEP_BUSY : REMOVE_PER_STEP_IDLE;
  let removed = 0;
  while (budget > 0 && st.firstEntry < st.entries) {
    const entry = await t.item<DeliveryEntry>('deliveries', st.firstEntry);
    if (!entry || new Date(entry.receivedAt).toISOString() >= cutoff || entry.slot >= removableBelow) break;
    if (st.open.some((o) => o.entry === st.firstEntry)) break; // its runs are still going
    const end = entry.firstRun + entry.runCount;
    while (st.firstRun < end && budget > 0) {
      const run = (await t.item<RunSummary>('runs', st.firstRun))!;
      const index = st.firstRun - entry.firstRun;
      await removeRun(models, run, index, entry.stepCount ?? 0, index === entry.runCount - 1);
      if (run.status !== 'running') st[run.status]--;
      st.firstRun++;
      budget--;
      removed++;
    }
    if (st.firstRun < end) break;
    const delivery = await byId<DeliveryDoc>(models.Delivery, entry._id);
    // Its document first: a replay that checks for it after this is refused (src/storage/body-refs.ts).
    await deleteById(models.Delivery, entry._id);
    if (delivery?.body) await releaseBody(models, delivery.body, delivery._id);
    await deleteById(models.HistorySlot, slotId(t.robotId, entry.slot));
    countDelivery(st, entry.outcome, -1);
    st.firstEntry++;
    removed++;
  }
  if (removed > 0) {
    await dropBlocksBelow(models, t, 'runs', blockOf(st.firstRun));
    await dropBlocksBelow(models, t, 'deliveries', blockOf(st.firstEntry));
  }
  return removed;
}

/** Deletes the stored blocks wholly below the first kept item (walking down until one is gone). */
async function dropBlocksBelow(
  models: Models,
  t: LiveTally,
  kind: 'runs' | 'deliveries',
  below: number,
): Promise<void> {
  t.forgetBlocks(kind, below);
  for (let b = below - 1; b >= 0; b--) {
    const id = blockId(kind, t.robotId, b);
    const [final, live] = await Promise.all([
      byId(models.HistoryBlock, finalBlockId(id)),
      byId(models.HistoryBlock, id),
    ]);
    if (!final && !live) break;
    await deleteById(models.HistoryBlock, finalBlockId(id));
    await deleteById(models.HistoryBlock, id);
  }
}
