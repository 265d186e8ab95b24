/**
 * The limits of src/domain/limits/ that are derived from what the engines refuse stay below it:
 * a change to one that would let a delivery reach an engine's limit fails here, not in production
 * (the real Temporal server's limits; the dev server is laxer).
 */
import {
  BLOB_CHUNK_BYTES,
  CODEC_BODY_BYTES,
  CONTINUATION_BYTES,
  DOCUMENT_BYTES,
  INLINE_JSON_BYTES,
  RUN_START_BATCH,
  RUNS_PER_CONTINUATION,
  SEEDS_MAX_BYTES,
  TEMPORAL_HISTORY_EVENTS,
  TEMPORAL_PAYLOAD_FAILS_BYTES,
  TEMPORAL_PENDING_CHILDREN,
  TRIGGER_INLINE_BYTES,
} from '../../src/domain/limits';

/** Events a child run adds to its parent's history: initiated, started, completed, and its share of tasks. */
const EVENTS_PER_CHILD = 8;

it('keeps a continuation of the delivery workflow far from the history and pending-children limits', () => {
  expect(RUNS_PER_CONTINUATION).toBeLessThan(TEMPORAL_PENDING_CHILDREN);
  expect(RUN_START_BATCH).toBeLessThanOrEqual(RUNS_PER_CONTINUATION);
  expect(RUNS_PER_CONTINUATION * EVENTS_PER_CHILD).toBeLessThan(TEMPORAL_HISTORY_EVENTS / 4);
});

it('keeps every payload the workflows pass below the size Temporal fails', () => {
  expect(SEEDS_MAX_BYTES).toBeLessThan(TEMPORAL_PAYLOAD_FAILS_BYTES);
  expect(TRIGGER_INLINE_BYTES).toBeLessThan(SEEDS_MAX_BYTES);
  // What a workflow run passed to its children, before it continues as new, is not one payload, but
  // its history must stay below the history size limit (50 MB on the real server).
  expect(CONTINUATION_BYTES).toBeLessThan(50 * 1000 * 1000);
  // The Web UI sends a page of payloads, each up to the payload limit, to the codec endpoint.
  expect(CODEC_BODY_BYTES).toBeGreaterThanOrEqual(16 * TEMPORAL_PAYLOAD_FAILS_BYTES);
});

it('keeps every stored piece below the size of a document', () => {
  expect(BLOB_CHUNK_BYTES).toBeLessThan(DOCUMENT_BYTES / 2);
  expect(INLINE_JSON_BYTES).toBeLessThan(DOCUMENT_BYTES / 2);
});
