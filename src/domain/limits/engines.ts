/**
 * What the engines refuse: Temporal's and the store's hard limits (not settings; past them the
 * engine refuses), which the limits of the other files here are sized against (test/unit/limits.test.ts).
 */
import { MiB } from './units';

/** Temporal fails a payload (an activity's answer, a workflow's input) over 2 MB; it warns from 512 KiB. */
export const TEMPORAL_PAYLOAD_FAILS_BYTES = 2 * 1000 * 1000;
/** Temporal terminates a workflow run whose history reaches 51,200 events. */
export const TEMPORAL_HISTORY_EVENTS = 51_200;
/** Temporal refuses to start a child while a workflow run has 2,000 children pending. */
export const TEMPORAL_PENDING_CHILDREN = 2000;
/**
 * Temporal server refuses a workflow ID over 255 bytes (`limit.maxIDLength`; its SQL schemas' ID
 * columns are VARCHAR(255)). The dev server allows 1,000, so only a real server shows it.
 */
export const TEMPORAL_MAX_ID_BYTES = 255;
/**
 * Temporal keeps recently written history events in a cache per history shard
 * (`history.eventsCacheMaxSizeBytes`), 512 KiB by default: sized for clusters of hundreds of shards,
 * while the dev server has one and the cluster four. A fan-out writes RUN_START_BATCH child-start
 * events at once, and starting each child reads its event back: when the batch does not fit, every
 * start reads and decodes the whole batch from the store again (2,000 rows, every feature on: 45.7
 * against 28.3 ms of server CPU per run, docs/benchmark-history.md). A batch of the largest inline trigger
 * data (TRIGGER_INLINE_BYTES each, 8.5 MB) fits; a typical batch (about 1 KB a child) thirty times over.
 */
export const TEMPORAL_EVENTS_CACHE_BYTES_PER_SHARD = 16 * MiB;
/** MongoDB and FerretDB refuse a document over 16 MiB. */
export const DOCUMENT_BYTES = 16 * MiB;
