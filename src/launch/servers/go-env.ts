/**
 * The environment the embedded Go servers (the Temporal dev server, FerretDB) start with: the
 * launcher's own, with the garbage collector's target of EMBEDDED_GO_GC_PERCENT unless it sets GOGC.
 */
import { EMBEDDED_GO_GC_PERCENT } from '../../domain/limits';

export function goServerEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { GOGC: String(EMBEDDED_GO_GC_PERCENT), ...env };
}
