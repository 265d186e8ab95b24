/**
 * Answers of the management API and the dashboard's files are compressed (docs/operations.md,
 * "Compression and caching") from this size on: a smaller answer fits in one TCP packet as it is
 * (about 1,400 bytes of payload), so compressing it would cost CPU and a header and save no round trip.
 */
export const COMPRESS_MIN_BYTES = 1400;
