/** What one receiver, worker, delivery or workspace may take (the defaults and their why: src/domain/limits/). */
import {
  DEFAULT_AUTH_FAILURES_PER_MINUTE,
  DEFAULT_BODY_IDLE_TIMEOUT_MS,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_INLINE_BODY_BYTES,
  DEFAULT_MAX_APPS_PER_WORKSPACE,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
  DEFAULT_MAX_INFLIGHT_BODY_BYTES,
  DEFAULT_MAX_INFLIGHT_BODY_BYTES_PER_TRIGGER,
  DEFAULT_MAX_ROBOTS_PER_WORKSPACE,
  DEFAULT_REJECTED_PER_MINUTE,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from '../../domain/limits';
import { DEFAULT_DELIVERY_CAPS as CAPS } from '../../domain/delivery-caps';
import { flag, positiveInt, wholeNumber } from './fields';

const bytes = positiveInt('bytes');
const ms = positiveInt('milliseconds');
const count = positiveInt();
const FAILED = 'the delivery is `failed`, naming it, with no run';

export const limitSettings = {
  MAX_BODY_BYTES: bytes.default(DEFAULT_MAX_BODY_BYTES).describe('Largest webhook body; larger gets 413'),
  INLINE_BODY_BYTES: bytes
    .default(DEFAULT_INLINE_BODY_BYTES)
    .describe('Bodies up to this size travel in the workflow input; larger are stored in MongoDB first'),
  MAX_INFLIGHT_BODY_BYTES: bytes
    .default(DEFAULT_MAX_INFLIGHT_BODY_BYTES)
    .describe('Body bytes one receiver holds at once (counted as they arrive); past it `503` with `Retry-After`'),
  MAX_INFLIGHT_BODY_BYTES_PER_TRIGGER: bytes
    .default(DEFAULT_MAX_INFLIGHT_BODY_BYTES_PER_TRIGGER)
    .describe('Of those, what one URL may hold; past it `503` for that URL only'),
  CSV_MAX_ROWS: count.default(CAPS.CSV_MAX_ROWS).describe(`Rows of one CSV delivery; past it ${FAILED}`),
  CSV_MAX_COLUMNS: count.default(CAPS.CSV_MAX_COLUMNS).describe(`Columns of one CSV; past it ${FAILED}`),
  CSV_MAX_CELL_BYTES: bytes.default(CAPS.CSV_MAX_CELL_BYTES).describe(`Bytes of one CSV cell; past it ${FAILED}`),
  CSV_MAX_HEADER_CELL_BYTES: bytes
    .default(CAPS.CSV_MAX_HEADER_CELL_BYTES)
    .describe(`Bytes of a CSV column's name (a header cell); past it ${FAILED} ([security.md](security.md))`),
  MAX_TRIGGER_BYTES: bytes
    .default(CAPS.MAX_TRIGGER_BYTES)
    .describe(`Bytes of the trigger data one delivery makes; past it ${FAILED} ([security.md](security.md))`),
  MAX_TRIGGER_ITEMS: count
    .default(CAPS.MAX_TRIGGER_ITEMS)
    .describe(
      'Items (objects, arrays, scalars) of one json, xml or form trigger data value; json and xml are counted ' +
        `in a pass over the body before it is parsed. Past it ${FAILED} ([security.md](security.md#a-workers-memory))`,
    ),
  RULE_MATCH_CHARS_PER_DELIVERY: count
    .default(CAPS.RULE_MATCH_CHARS_PER_DELIVERY)
    .describe(
      "Characters the trigger rules' `matches` patterns may test in one delivery, all values, rows and " +
        `conditions together; past it ${FAILED} ([api.md](api.md#trigger-rules))`,
    ),
  FANOUT_ROWS_PER_HOUR: count
    .default(CAPS.FANOUT_ROWS_PER_HOUR)
    .describe(
      "Rows a URL's CSV deliveries may make into runs in an hour, across every worker; a CSV past what is " +
        `left is \`failed\`, naming it, with no run ([security.md](security.md))`,
    ),
  FANOUT_ROWS_PER_HOUR_PER_WORKSPACE: count
    .default(CAPS.FANOUT_ROWS_PER_HOUR_PER_WORKSPACE)
    .describe(
      "The same, for every URL of a workspace together: one customer's flood cannot use up another's share " +
        '([workspaces.md](workspaces.md#limits-per-workspace))',
    ),
  MAX_ROBOTS_PER_WORKSPACE: count
    .default(DEFAULT_MAX_ROBOTS_PER_WORKSPACE)
    .describe(
      'Robots one workspace may hold; past it a create answers `409` naming it ' +
        '([workspaces.md](workspaces.md#limits-per-workspace))',
    ),
  MAX_APPS_PER_WORKSPACE: count
    .default(DEFAULT_MAX_APPS_PER_WORKSPACE)
    .describe('Apps one workspace may hold; past it a create answers `409` naming it'),
  HEADERS_TIMEOUT_MS: ms
    .default(DEFAULT_HEADERS_TIMEOUT_MS)
    .describe(
      "Slow senders: a request's headers; past it `408` and the connection closed (not over `REQUEST_TIMEOUT_MS`)",
    ),
  BODY_IDLE_TIMEOUT_MS: ms
    .default(DEFAULT_BODY_IDLE_TIMEOUT_MS)
    .describe('Slow senders: a body gone quiet; past it `408` and the connection closed'),
  REQUEST_TIMEOUT_MS: ms
    .default(DEFAULT_REQUEST_TIMEOUT_MS)
    .describe('Slow senders: a whole request; past it `408` and the connection closed'),
  MAX_CONNECTIONS: count
    .default(DEFAULT_MAX_CONNECTIONS)
    .describe(
      'Connections one receiver keeps at once; at the cap, idle keep-alive connections are closed first ' +
        '([security.md](security.md#slow-senders-and-floods))',
    ),
  MAX_CONNECTIONS_PER_ADDRESS: count
    .default(DEFAULT_MAX_CONNECTIONS_PER_ADDRESS)
    .describe('Of those, from one client address (a proxy `TRUST_PROXY` names counts in the total only)'),
  AUTH_FAILURES_PER_MINUTE: count
    .default(DEFAULT_AUTH_FAILURES_PER_MINUTE)
    .describe('Wrong admin tokens per client address a minute; past it `429`'),
  REJECTED_PER_MINUTE: count
    .default(DEFAULT_REJECTED_PER_MINUTE)
    .describe('`rejected` deliveries per URL a minute; past it `429`'),
  TRIGGER_CACHE_TTL_MS: wholeNumber({ min: 0, unit: 'milliseconds' })
    .default(5000)
    .describe(
      'How long a receiver trusts a trigger it looked up; a change through another receiver reaches it within ' +
        'a second anyway',
    ),
  TRIGGER_CACHE_COALESCE: flag
    .default('1')
    .describe(
      '`0`: every request for an expired trigger loads it on its own (only to measure the coalescing: ' +
        'src/receiver/trigger-cache.ts)',
    ),
};
