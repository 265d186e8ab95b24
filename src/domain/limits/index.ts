/**
 * Every size and batch limit of the service, each with why it has its value, one file per concept:
 * what the engines refuse (./engines.ts, the hard limits the rest are sized against), what a
 * request may be (./requests.ts), what a delivery may make and how it is worked (./deliveries.ts),
 * what a worker prepares at once (./preparation.ts),
 * the run history (./history.ts), trigger rules (./rules.ts), the management API (./management.ts),
 * what a sender's check parses before its credential is checked (./unsigned-parsing.ts), what the
 * delivery inspector keeps and reads at once (./inspection.ts), what one
 * workspace may hold (./workspace-sizes.ts),
 * what processes keep in memory (./memory.ts), a request's id as taken from a client (./request-ids.ts),
 * the answers compressed (./compression.ts), issues (./issues.ts) and notifications' outbound
 * requests (./notifications.ts). Timing constants (pauses, ticks, time-outs) stay
 * at the top of the module that waits. Imports nothing outside this folder: the workflow bundle, the
 * bench and the tests read limits from here.
 */
export * from './engines';
export * from './requests';
export * from './deliveries';
export * from './preparation';
export * from './history';
export * from './rules';
export * from './management';
export * from './memory';
export * from './unsigned-parsing';
export * from './workspace-sizes';
export * from './inspection';
export * from './request-ids';
export * from './compression';
export * from './issues';
export * from './notifications';
