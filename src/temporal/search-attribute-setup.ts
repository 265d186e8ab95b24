/**
 * Registers the service's search attributes (src/domain/search-attributes.ts) in its namespace
 * when they are missing: a start that names an unknown one is refused by Temporal. Adding one
 * that exists is harmless (another process may add it at the same moment).
 *
 * Where the service may not add them (a managed namespace), it says once, at `error`, which to add
 * and how, and goes on: starts are refused (503) until they exist.
 */
import type { ConnectionLike } from '@temporalio/client';
import { setTimeout } from 'node:timers/promises';
import { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTES } from '../domain/search-attributes';
import type { Logger } from '../core/log';

/** While Temporal does not answer, the receiver asks again this often. */
const REGISTER_RETRY_MS = 5000;
/** gRPC codes of a server that is not there (yet): UNAVAILABLE, DEADLINE_EXCEEDED. */
const NOT_ANSWERING = new Set([14, 4]);

/** The dev server's flags that create them at its start. */
export const DEV_SERVER_SEARCH_ATTRIBUTE_FLAGS = SEARCH_ATTRIBUTES.flatMap((k) => [
  '--search-attribute',
  `${k.name}=Keyword`,
]);

/** What an operator runs to add them by hand. */
const BY_HAND = SEARCH_ATTRIBUTES.map(
  (k) => `temporal operator search-attribute create --name ${k.name} --type Keyword`,
).join('; ');

/** The service's search attributes that a namespace's custom ones (by name) lack. */
export function missingSearchAttributes(customAttributes: Record<string, unknown> | null | undefined) {
  return SEARCH_ATTRIBUTES.filter((k) => !customAttributes?.[k.name]);
}

export async function ensureSearchAttributes(
  connection: Pick<ConnectionLike, 'operatorService'>,
  namespace: string,
  log: Logger,
): Promise<void> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = missingSearchAttributes(customAttributes);
  if (missing.length === 0) return;
  const keyword = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
  try {
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((k) => [k.name, keyword])),
    });
    log.info('search attributes added', { names: missing.map((k) => k.name) });
  } catch (err) {
    if (!/already exists/i.test(String(err))) throw err;
  }
}

/**
 * Registers them, asking again while Temporal does not answer (the receiver starts, and answers
 * 503, while it is down). Any other refusal is logged once with what to run by hand.
 */
export async function registerSearchAttributes(
  connection: Pick<ConnectionLike, 'operatorService'>,
  namespace: string,
  log: Logger,
  /** Stops asking (the process is stopping); a call in flight is left to end by itself. */
  signal?: AbortSignal,
): Promise<void> {
  while (!signal?.aborted) {
    try {
      return await ensureSearchAttributes(connection, namespace, log);
    } catch (err) {
      if (signal?.aborted) return;
      if (!NOT_ANSWERING.has((err as { code?: number }).code ?? -1)) {
        log.error(`could not add the search attributes; add them by hand: ${BY_HAND}`, {
          namespace,
          err,
        });
        return;
      }
      log.debug('Temporal does not answer yet; the search attributes are added once it does', { namespace });
      await setTimeout(REGISTER_RETRY_MS, undefined, { ref: false, signal }).catch(() => undefined);
    }
  }
}
