/** How the worker runs and what it keeps: logs, history, run features, its share of the machine. */
import {
  DEFAULT_LARGE_BODY_PREPARATIONS,
  DEFAULT_PREPARATION_ATTEMPTS,
  DEFAULT_PREPARING_BODY_BYTES,
} from '../../domain/limits';
import { duration, flag, oneOf, positiveInt, wholeNumber } from './fields';

export const workerSettings = {
  LOG_LEVEL: oneOf(['debug', 'info', 'warn', 'error'] as const)
    .default('info')
    .describe('The least a log line must be'),
  LOG_FORMAT: oneOf(['json', 'pretty'] as const)
    .optional()
    .describe('Log lines as JSON objects or readable text ([operations.md](operations.md#logs))'),
  HISTORY_RETENTION: duration('30d').describe(
    'How long runs and deliveries stay in history (`45s`, `90m`, `12h`, `14d`; `0` keeps them forever). ' +
      'See [storage.md](storage.md#retention)',
  ),
  AUDIT_RETENTION: duration('365d').describe(
    'How long the audit log keeps an entry (`0`: forever); older ones are neither shown nor kept ' +
      '([workspaces.md](workspaces.md#the-audit-log))',
  ),
  HISTORY_KEEPER: flag
    .default('1')
    .describe(
      '`0`: this worker runs no history keeper (workers share the work by lease anyway; ' +
        "the benchmark's baseline uses it)",
    ),
  RUN_SEARCH_ATTRIBUTES: flag
    .default('1')
    .describe('`0`: no `RobotId` search attribute on runs (the bench prices it: [benchmark.md](benchmark.md))'),
  RUN_SUMMARIES: flag.default('1').describe('`0`: no summary on each run of a CSV (the bench prices it)'),
  KEEP_BODIES: flag.default('1').describe('`0`: bodies are not kept for replay (the bench prices it)'),
  PAYLOAD_ENCRYPTION: flag
    .default('1')
    .describe('`0`: payloads are not sealed in Temporal (only to measure it: sealed ones are still read)'),
  FIELDS_SEEN: flag
    .default('1')
    .describe(
      '`0`: the worker keeps no record of the paths deliveries carried, so `GET /api/robots/:id/fields` and the ' +
        "dashboard's picker stay empty ([api.md](api.md#fields-seen))",
    ),
  WORKER_NICE: wholeNumber({ min: 0, max: 19 })
    .default(10)
    .describe(
      'The niceness every thread of the worker runs at, so that on a machine it shares with the receiver and ' +
        "Temporal a delivery's ack comes before runs; runs catch up after a burst. `0` leaves it as started; a " +
        'worker started nicer stays so ([operations.md](operations.md#cpu-acks-before-runs))',
    ),
  WORKER_WORKFLOW_TASKS: wholeNumber({ min: 2, max: 1000 })
    .default(100)
    .describe(
      'Workflow tasks a worker holds at once; a one-run delivery holds one while its activity runs. More let ' +
        "concurrent deliveries share their writes; each comes back to Temporal as a write, and a delivery's " +
        "start waits behind those queued there: fewer give a sender's ack a shorter tail beside running runs " +
        '([operations.md](operations.md#cpu-acks-before-runs))',
    ),
  PREPARING_BODY_BYTES: positiveInt('bytes')
    .default(DEFAULT_PREPARING_BODY_BYTES)
    .describe(
      'Bytes of stored bodies (over `INLINE_BODY_BYTES`) one worker prepares at once; past it a preparation ' +
        'waits its turn, its activity heartbeating (not a failure, not an attempt). A body larger than the whole ' +
        'budget is prepared alone. Inline bodies never wait ([security.md](security.md#a-workers-memory))',
    ),
  LARGE_BODY_PREPARATIONS: positiveInt()
    .default(DEFAULT_LARGE_BODY_PREPARATIONS)
    .describe(
      'Stored bodies one worker prepares at once, whatever their size; for a worker with a small heap ' +
        '(`--max-old-space-size` of a few hundred MB), `1`',
    ),
  PREPARATION_ATTEMPTS: positiveInt()
    .default(DEFAULT_PREPARATION_ATTEMPTS)
    .describe(
      'Attempts at preparing a stored body whose worker stopped under them (out of memory, killed); at the next ' +
        'the delivery is `failed`, naming it, with no run. Attempts that end with an error (the store down) are ' +
        'not counted',
    ),
};
