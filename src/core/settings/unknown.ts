/**
 * Variables in the environment that look like one of ours but are not (`MAX_BODY_BYTE=5`): the
 * schema drops names it does not know, so a typo would be silently ignored. A name is warned about
 * when it is close to a setting's (Levenshtein distance, a swap counting 1: up to 2, 1 for names under 8
 * characters) or
 * starts like ours (EMBEDDED_, CLUSTER_, CSV_, …), with the nearest setting as "did you mean".
 * Variables the set-up scripts, the bench and the tests read are known too.
 */
import { SETTING_NAMES } from '../config-env';

/** Read elsewhere (scripts/*.sh, bench/, test/support/): never warned about. */
const OTHER_NAMES = new Set([
  'NODE_ENV',
  'WEBHOOKS_BIN_CACHE',
  'WEBHOOKS_PARENT_PID',
  'WEBHOOKS_REVISION',
  'TEST_PROJECTS',
  'TEST_WORKFLOW_BUNDLE',
  'BUILD_FORCE',
  'DASHBOARD_INPUTS_FILE',
  'FERRETDB_SQLITE_DIR',
]);
const OTHER_PREFIXES = ['BENCH_', 'PROGRESS_'];
const OTHER_SUFFIXES = ['_BIN', '_VERSION'];

/** Starts only our settings have (TEMPORAL_ is the Temporal CLI's too: only TEMPORAL_TLS_ counts). */
const OUR_PREFIXES = [
  'EMBEDDED_TEMPORAL_',
  'TEMPORAL_TLS_',
  'CLUSTER_',
  'CSV_',
  'FANOUT_',
  'MAX_INFLIGHT_',
  'WORKER_',
  'SECRETS_KEY',
  'TRIGGER_CACHE_',
];

/** Levenshtein distance, with two neighbours swapped counting as one edit (PROT is 1 from PORT). */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

function nearest(name: string, among: readonly string[]): { setting: string; distance: number } | null {
  let best: { setting: string; distance: number } | null = null;
  for (const setting of among) {
    const distance = editDistance(name, setting);
    if (!best || distance < best.distance) best = { setting, distance };
  }
  return best;
}

/** A warning for each variable that looks like a setting of ours and is not one. */
export function unknownSettingWarnings(env: NodeJS.ProcessEnv): string[] {
  const known = new Set<string>(SETTING_NAMES);
  const warnings: string[] = [];
  for (const name of Object.keys(env).sort()) {
    if (!/^[A-Z][A-Z0-9_]*$/.test(name) || known.has(name) || OTHER_NAMES.has(name)) continue;
    if (OTHER_PREFIXES.some((p) => name.startsWith(p)) || OTHER_SUFFIXES.some((s) => name.endsWith(s))) continue;
    const close = nearest(name, SETTING_NAMES);
    const near = close !== null && close.distance <= (name.length >= 8 ? 2 : 1);
    const prefix = OUR_PREFIXES.find((p) => name.startsWith(p));
    if (!near && !prefix) continue;
    const sameStart = prefix
      ? nearest(
          name,
          SETTING_NAMES.filter((s) => s.startsWith(prefix)),
        )
      : null;
    const suggestion = near ? close : sameStart;
    warnings.push(
      `${name} is not a setting of this service and is ignored` +
        (suggestion ? `: did you mean ${suggestion.setting}?` : '') +
        ' (docs/configuration.md)',
    );
  }
  return warnings;
}
