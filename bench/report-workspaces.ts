/** The workspaces phase's section of the report (bench/phases/workspaces.ts). */
import { WORKSPACE_READS, type WorkspacesResult } from './phases/workspaces';
import { pct, table } from './report-sections';

/** The robots page and the audit log of a large workspace, against a workspace of 60 (a page and more). */
export function workspacesReport(w: WorkspacesResult): string {
  const rows = WORKSPACE_READS.map((k) => [
    k,
    pct(w.baselineMs[k]),
    pct(w.scaledMs[k]),
    (w.scaledMs[k].p95 / w.baselineMs[k].p95).toFixed(2),
  ]);
  return [
    `Workspaces: ${w.robots} robots (and as many in another workspace) and ${w.entries} audit entries, ` +
      `against 60 of each (more than a page); ms p50 / p95 / p99 (${w.samples} requests each through the API; robotsCold: 20 ` +
      "first pages of a new process's directory, without HTTP; robotsAfterRename: 50 first pages after a " +
      `rename); seeded in ${w.seedSeconds} s`,
    table(['read', '60 (baseline)', `${w.robots} robots / ${w.entries} entries`, 'p95 ÷ baseline p95'], rows),
  ].join('\n');
}
