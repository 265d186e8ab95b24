/**
 * Reading and naming history documents (storage/history-documents.ts), by `_id` only (storage/by-id.ts).
 */
import { byId } from '../storage/by-id';
import type { Models } from '../storage/models';
import { emptyTally, type TallyState } from './tally';

export const slotId = (robotId: string, slot: number) => `${robotId}:${slot}`;
export const tallyId = (robotId: string, v: number) => `${robotId}:${v}`;
export type BlockKind = 'runs' | 'deliveries';
export const blockId = (kind: BlockKind, robotId: string, block: number) => `${kind}:${robotId}:${block}`;
export const finalBlockId = (id: string) => `${id}:final`;
export const previewPageId = (deliveryId: string, page: number) => `${deliveryId}:${page}`;

interface Tally {
  v: number;
  state: TallyState;
}

/**
 * The robot's newest tally. The head names a version; the keeper writes a version before moving
 * the head, so a newer one may exist, and it is looked for. Version 0 is the empty tally. A head
 * whose version stays gone (the keeper moved on past every read) throws, so the caller tries again:
 * read as the empty tally, it would send a recorder looking for a free slot from slot 0, behind
 * the keeper, where retention has freed slots.
 */
export async function readTally(models: Models, robotId: string): Promise<Tally> {
  for (let attempt = 0; ; attempt++) {
    const head = await byId<{ _id: string; v: number }>(models.HistoryHead, robotId);
    let v = head?.v ?? 0;
    let doc = v === 0 ? null : await byId<{ _id: string; stateJson: string }>(models.HistoryTally, tallyId(robotId, v));
    if (v !== 0 && !doc && attempt < 3) continue; // the keeper moved on and removed it: read the head again
    for (;;) {
      const next = await byId<{ _id: string; stateJson: string }>(models.HistoryTally, tallyId(robotId, v + 1));
      if (!next) break;
      [v, doc] = [v + 1, next];
    }
    if (v !== 0 && !doc) throw new Error(`the tally of robot ${robotId} moved on while it was read; try again`);
    return { v, state: doc ? (JSON.parse(doc.stateJson) as TallyState) : emptyTally() };
  }
}

/** The items of each block, the final copy when there is one; missing blocks are left out. */
export async function readBlocks<T>(models: Models, ids: string[]): Promise<Map<string, Array<T | null>>> {
  const docs = await Promise.all(
    ids.map(async (id) => {
      const [final, live] = await Promise.all([
        byId<{ _id: string; itemsJson: string }>(models.HistoryBlock, finalBlockId(id)),
        byId<{ _id: string; itemsJson: string }>(models.HistoryBlock, id),
      ]);
      return [id, final ?? live] as const;
    }),
  );
  const blocks = new Map<string, Array<T | null>>();
  for (const [id, doc] of docs) if (doc) blocks.set(id, JSON.parse(doc.itemsJson) as Array<T | null>);
  return blocks;
}
