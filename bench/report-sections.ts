/**
 * The report's tables: one aligned text table (`table`), and the sections of the phases that
 * measure one thing against another (what each feature costs, hostile load, the cluster).
 */
import type { HttpLoadSummary, Percentiles } from './load';
import type { AblationRow } from './phases/ablation';
import type { HostileResult } from './phases/hostile';
import type { LevelResult } from './phases/levels';

export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r: string[]) =>
    '  ' + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(cells[0]), '  ' + widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

export const pct = (p: Percentiles) => `${p.p50} / ${p.p95} / ${p.p99}`;

/** What each feature costs a CSV row: runs/s and CPU per run with it off, beside all on and an earlier commit. */
export function ablationReport(rows: AblationRow[]): string {
  return [
    `What each feature costs: a ${rows[0].csv.rows}-row CSV, each variant on a stack of its own`,
    table(
      ['variant', 'runs/s', '÷ all on', 'CPU ms/run: temporal', 'worker', 'ferretdb', 'receiver'],
      rows.map((r) => [
        r.variant,
        r.csv.runsPerSec,
        r.vsAllOn.toFixed(2),
        r.csv.cpuMsPerRun.temporal,
        r.csv.cpuMsPerRun.worker,
        r.csv.cpuMsPerRun.ferretdb,
        r.csv.cpuMsPerRun.receiver,
      ]),
    ),
  ].join('\n');
}

/** Ordinary senders alone and while one URL takes the worst allowed CSV and ten slow uploads. */
export function hostileReport(h: HostileResult): string {
  const row = (name: string, l: HttpLoadSummary) => [name, l.perSec, l.ok, l.non2xx, pct(l.latencyMs)];
  return [
    `Hostile load: ${h.connections} ordinary senders, alone and while one URL takes the worst allowed CSV ` +
      `(${h.csvRows} rows, fanning out) and ${h.slowUploads} slow uploads`,
    table(
      ['senders', 'acks/s', '2xx', 'non-2xx', 'ack ms p50 / p95 / p99'],
      [row('alone', h.alone), row('under attack', h.underAttack)],
    ),
    `  acks ÷ alone: ${h.ackRatio.toFixed(3)}; p99 ÷ alone: ${h.p99Ratio.toFixed(2)}; ` +
      `CSV runs finished meanwhile: ${h.csvRunsDuringLoad}; slow uploads still open at the end: ${h.slowUploadsOpenAtEnd}`,
  ].join('\n');
}

/** The cluster beside the dev server, level by level: each against its own Temporal's bare starts. */
export function clusterReport(dev: LevelResult[], cluster: LevelResult[]): string {
  const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : 'n/a');
  return [
    'Cluster (Temporal server on PostgreSQL, 4 shards; 2 receivers, 2 workers behind nginx) beside the dev server',
    table(
      [
        'connections',
        'bare starts/s dev',
        'cluster',
        'acks/s dev',
        'cluster',
        'ack÷starts dev',
        'cluster',
        'runs/s dev',
        'cluster',
        'cluster÷dev acks',
        'runs',
      ],
      cluster.map((c) => {
        const d = dev.find((l) => l.connections === c.connections);
        return [
          c.connections,
          d?.bareTemporal.perSec ?? 'n/a',
          c.bareTemporal.perSec,
          d?.ack.perSec ?? 'n/a',
          c.ack.perSec,
          d ? d.ackVsTemporal.toFixed(3) : 'n/a',
          c.ackVsTemporal.toFixed(3),
          d?.endToEnd.runsPerSecToDrain ?? 'n/a',
          c.endToEnd.runsPerSecToDrain,
          d ? ratio(c.ack.perSec, d.ack.perSec) : 'n/a',
          d ? ratio(c.endToEnd.runsPerSecToDrain, d.endToEnd.runsPerSecToDrain) : 'n/a',
        ];
      }),
    ),
    '  runs/s: runs per second from the start of the load until the last one finished.',
  ].join('\n');
}
