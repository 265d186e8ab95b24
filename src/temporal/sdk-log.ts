/**
 * The Temporal SDK's own log lines (worker, workflows, activities) through the service's logger,
 * so they are JSON with the rest and carry the SDK's `workflowId`, `activityType` and so on.
 *
 * An expected failure (EXPECTED_FAILURE_TYPES: a body that does not parse, a start nobody sealed)
 * is the product doing its job: the workflow logs it itself as one `info` (or `warn`) line with the delivery's ids and
 * `expectedFailure: <type>`, and the SDK's "Workflow failed" warning that follows for the same
 * workflow, stack and all, is lowered to `debug` with the error's name only (its message may quote
 * the body). The warning cannot be told apart by its error: a workflow's log lines reach this
 * process from its worker thread as copies, which keep an error's message but not its type.
 */
import type { LogLevel as SdkLevel, LogMetadata, Logger as SdkLogger } from '@temporalio/common';
import { DELIVERY_FAILURES } from '../domain/types';
import { COPIED_INPUT, UNSEALED_INPUT } from '../domain/unsealed';
import type { Logger } from '../core/log';
import { EXPECTED_FAILURES_REMEMBERED } from '../domain/limits';

const EXPECTED_FAILURE_TYPES: readonly string[] = [...DELIVERY_FAILURES, UNSEALED_INPUT, COPIED_INPUT];

function failureType(error: unknown): string | undefined {
  for (let e = error as { type?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.type === 'string') return e.type;
  }
  return undefined;
}

/**
 * An error as a log field (`err`, the shape pino gives an Error: src/core/log.ts): its type (a
 * Temporal failure's own), message and stack; an expected one by its type alone (its message may
 * quote a body).
 */
function errorField(error: unknown, expected: boolean): unknown {
  if (typeof error !== 'object' || error === null) return expected ? undefined : error;
  const e = error as { name?: unknown; message?: unknown; stack?: unknown };
  const type = failureType(error) ?? (typeof e.name === 'string' ? e.name : 'Error');
  return expected ? { type } : { type, message: e.message, stack: e.stack };
}

export function sdkLogger(log: Logger): SdkLogger {
  const expectedFailures = new Set<string>();
  const write = (level: SdkLevel, message: string, meta: LogMetadata = {}) => {
    const { error, ...fields } = meta as LogMetadata & { error?: unknown };
    const workflowId = typeof fields.workflowId === 'string' ? fields.workflowId : undefined;
    if (
      workflowId &&
      typeof fields.expectedFailure === 'string' &&
      EXPECTED_FAILURE_TYPES.includes(fields.expectedFailure)
    ) {
      expectedFailures.add(workflowId);
      if (expectedFailures.size > EXPECTED_FAILURES_REMEMBERED)
        expectedFailures.delete(expectedFailures.values().next().value!);
    }
    let expected = error !== undefined && EXPECTED_FAILURE_TYPES.includes(failureType(error) ?? '');
    if (message === 'Workflow failed' && workflowId && expectedFailures.delete(workflowId)) expected = true;
    const all = error === undefined ? fields : { ...fields, err: errorField(error, expected) };
    if (expected || level === 'TRACE' || level === 'DEBUG') return log.debug(message, all);
    if (level === 'INFO') return log.info(message, all);
    if (level === 'WARN') return log.warn(message, all);
    return log.error(message, all);
  };
  return {
    log: write,
    trace: (m, meta) => write('TRACE', m, meta),
    debug: (m, meta) => write('DEBUG', m, meta),
    info: (m, meta) => write('INFO', m, meta),
    warn: (m, meta) => write('WARN', m, meta),
    error: (m, meta) => write('ERROR', m, meta),
  };
}
