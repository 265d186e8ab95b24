/**
 * Structured logs (pino): one JSON object per line on stderr, human-readable in a terminal.
 *
 * Contract:
 * - Every line has `level`, `time`, `name` (receiver, worker, embedded…) and `msg`; lines about a
 *   delivery or run carry `deliveryId`, `workflowId`, `robotId` and `workspaceId` where known (`child`
 *   binds them).
 * - An expected outcome (an unparsable body, a rejected signature, a refused request) is one line
 *   at `info`, never a stack trace. Stacks are for what is not expected.
 * - No line holds a webhook token, a signing secret, the admin token or a body: callers never pass
 *   them, and the field names they would have are redacted anyway (`REDACTED_FIELDS`).
 * - An error is under `err`, as the Error itself: pino writes its `type`, `message` and `stack` (and
 *   its `cause`). An expected one that must not show its message (it may quote a body) is `{ type }`.
 *   No other key holds an error (`error` is refused by the type).
 * - A line written while a request to the service's port is worked carries its `requestId`
 *   (src/core/request-ids.ts).
 *
 * `LOG_FORMAT` (config.ts) chooses `json` or `pretty`; by default a terminal gets `pretty`, anything
 * else `json`. The embedded launcher passes its choice on to the receiver and the worker.
 */
import pino from 'pino';
import PinoPretty from 'pino-pretty';
import { currentRequestId } from './request-ids';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFormat = 'json' | 'pretty';
/** A line's fields; an error goes under `err` (see the contract above), never `error`. */
type LogFields = Record<string, unknown> & { error?: never };

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger whose every line also carries these fields (a delivery's ids, say). */
  child(fields: LogFields): Logger;
  /** Whether a line at this level is written (so a caller can skip building one that is not). */
  enabled(level: LogLevel): boolean;
}

/** Field names whose values never reach a log line, at the top level or one level down. */
const REDACTED_FIELDS = ['token', 'secret', 'signingSecret', 'adminToken', 'authorization', 'body', 'rawBody'];

interface LoggerOptions {
  /** `pretty` by default when stderr is a terminal, else `json` (config.ts reads LOG_FORMAT). */
  format?: LogFormat;
  /** Where lines go (stderr by default). */
  destination?: NodeJS.WritableStream;
}

export function createLogger(name: string, level: LogLevel = 'info', opts: LoggerOptions = {}): Logger {
  const format = opts.format ?? (process.stderr.isTTY ? 'pretty' : 'json');
  const destination = opts.destination ?? process.stderr;
  const stream =
    format === 'pretty'
      ? PinoPretty({
          destination,
          sync: true,
          colorize: process.stderr.isTTY,
          ignore: 'pid,hostname',
          translateTime: 'SYS:HH:MM:ss.l',
        })
      : destination;
  const root = pino(
    {
      name,
      level,
      base: { name },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_FIELDS.flatMap((f) => [f, `*.${f}`]), censor: '[redacted]' },
      // A fresh object each line: pino merges the line's own fields into it.
      mixin: () => {
        const requestId = currentRequestId();
        return requestId === undefined ? {} : { requestId };
      },
    },
    stream,
  );
  return wrap(root);
}

function wrap(p: pino.Logger): Logger {
  const at = (level: LogLevel) => (message: string, fields?: LogFields) =>
    fields ? p[level](fields, message) : p[level](message);
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (fields) => wrap(p.child(fields)),
    enabled: (level) => p.isLevelEnabled(level),
  };
}

/** A logger that writes nothing (tests of code that takes one). */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
  enabled: () => false,
};
