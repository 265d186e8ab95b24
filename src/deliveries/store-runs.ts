/**
 * Stores one run per trigger data value of a delivery, in batches of RUN_INSERT_BATCH, with the
 * trigger previews the run history lists (the first page's go on the delivery record), and returns
 * the seeds of the first runs. A retried attempt skips the batches its predecessor reported.
 */
import { BLOCK_SIZE, RUN_INSERT_BATCH } from '../domain/limits';
import { runIdFor } from '../domain/ids';
import type { DeliveryInput, JsonValue, RunSeed } from '../domain/types';
import type { RunPreviewDoc } from '../storage/history-documents';
import { previewPageId } from '../history/store';
import { previewOf } from '../history/tally';
import { storeJson, triggerBlobId } from '../storage/blobs';
import type { BlobChunkDoc, RunDoc } from '../storage/documents';
import type { Models } from '../storage/models';
import type { GroupedInsert } from '../storage/writes';
import type { Progress } from './progress';
import { SeedBatch, seedOf } from './seeds';

/** Parsed trigger data for runs, in row order. */
type TriggerSource = Iterable<JsonValue> | AsyncIterable<JsonValue>;

export interface StoredRuns {
  runCount: number;
  firstRuns: RunSeed[];
  /** Trigger previews of the first page of runs, kept on the delivery record. */
  previewsJson: string;
}

/** Where runs and preview pages are written (grouped with other activities' writes). */
export interface RunWrites {
  models: Models;
  runs: GroupedInsert<RunDoc>;
  runPreviews: GroupedInsert<RunPreviewDoc>;
  /** Chunks of the bodies kept for replay (src/deliveries/body.ts keepBody). */
  blobChunks?: GroupedInsert<BlobChunkDoc>;
}

/** What storing runs reports in its heartbeat: how many runs are stored (before 0.5: that number alone). */
interface StoringProgress {
  stored: number;
}

/** How many runs an earlier attempt reported stored, or undefined when it reported none. */
export function storedSoFar(resumed: unknown): number | undefined {
  if (typeof resumed === 'number') return resumed;
  const stored = (resumed as Partial<StoringProgress> | null | undefined)?.stored;
  return typeof stored === 'number' ? stored : undefined;
}

export async function storeRuns(
  w: RunWrites,
  input: DeliveryInput,
  triggers: TriggerSource,
  progress: Progress,
): Promise<StoredRuns> {
  const resumeFrom = storedSoFar(progress.resumed) ?? 0;
  // From here on a retry knows the body was checked (prepare.ts) and that storing has begun.
  if (resumeFrom === 0) progress.beat({ stored: 0 } satisfies StoringProgress);
  const first = new SeedBatch(RUN_INSERT_BATCH);
  // A run was created when its delivery was received: the same time on every attempt.
  const createdAt = new Date(input.receivedAt);
  let batch: RunDoc[] = [];
  let previews: RunPreviewDoc[] = [];
  let page: Array<string | null> = [];
  let firstPage: Array<string | null> = [];
  let index = 0;
  for await (const data of triggers) {
    const runId = runIdFor(input.deliveryId, index);
    const triggerJson = JSON.stringify(data);
    if (index >= resumeFrom) {
      const trigger = await storeJson(w.models, triggerBlobId(runId), triggerJson);
      const { robotId, deliveryId, verified } = input;
      const test = input.test ? { test: true as const } : {};
      batch.push({ _id: runId, robotId, deliveryId, index, trigger, verified, createdAt, ...test });
    }
    page.push(previewOf(triggerJson));
    if (first.seeds.length === index) first.offer(seedOf(runId, triggerJson, data));
    index++;
    if (index % BLOCK_SIZE === 0) {
      const n = index / BLOCK_SIZE - 1;
      if (n === 0) firstPage = page;
      else if (index > resumeFrom)
        previews.push({ _id: previewPageId(input.deliveryId, n), previewsJson: JSON.stringify(page) });
      page = [];
    }
    if (batch.length === RUN_INSERT_BATCH) {
      await Promise.all([w.runs(batch), w.runPreviews(previews)]);
      [batch, previews] = [[], []];
      progress.beat({ stored: index } satisfies StoringProgress);
    }
  }
  if (page.length > 0) {
    const n = Math.floor((index - 1) / BLOCK_SIZE);
    if (n === 0) firstPage = page;
    else previews.push({ _id: previewPageId(input.deliveryId, n), previewsJson: JSON.stringify(page) });
  }
  await Promise.all([w.runs(batch), w.runPreviews(previews)]);
  return { runCount: index, firstRuns: first.seeds, previewsJson: JSON.stringify(firstPage) };
}
