/**
 * The environment the embedded Go servers (the Temporal dev server, FerretDB) start with: the
 * launcher's own, with the garbage collector's target of EMBEDDED_GO_GC_PERCENT unless it sets GOGC, and
 * freed memory handed back lazily (EMBEDDED_GO_DEBUG) unless it sets GODEBUG.
 */
import { EMBEDDED_GO_DEBUG, EMBEDDED_GO_GC_PERCENT } from '../../domain/limits';

export function goServerEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { GOGC: String(EMBEDDED_GO_GC_PERCENT), GODEBUG: EMBEDDED_GO_DEBUG, ...env };
}
