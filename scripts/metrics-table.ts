/**
 * docs/operations.md's table of the service's metrics, made from the registries themselves
 * (src/core/metrics.ts): each `webhooks_*` metric's name, type, process, labels (with their values
 * where they are a closed set) and help. test/unit/metrics-table.test.ts fails when the doc differs;
 * `npm run build && node dist/scripts/metrics-table.js` (or that test with WRITE_DOCS=1) rewrites it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { closedLabelValues, receiverMetrics, workerMetrics } from '../src/core/metrics';

/** docs/operations.md in the package's root (the first folder up with a package.json), from scripts/ or dist/. */
function operationsDoc(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, 'docs', 'operations.md');
}
export const OPERATIONS_DOC = operationsDoc();
/** Where docs/operations.md's generated table starts and ends (the lines themselves are kept). */
export const TABLE_START = '<!-- metrics table: made by scripts/metrics-table.ts from src/core/metrics.ts -->';
export const TABLE_END = '<!-- end of the metrics table -->';

/** The label names a metric was declared with (prom-client keeps its configuration on the metric). */
function labelNamesOf(metric: object): string[] {
  const names: unknown = (metric as { labelNames?: unknown }).labelNames;
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
}

/** A metric's Prometheus type (prom-client's typings give `type` as a numeric enum; it is the class that says). */
export function typeOf(metric: object): 'counter' | 'gauge' | 'histogram' | 'summary' {
  if (metric instanceof Counter) return 'counter';
  if (metric instanceof Gauge) return 'gauge';
  return metric instanceof Histogram ? 'histogram' : 'summary';
}

function labelsCell(metric: object): string {
  const closed = closedLabelValues(metric);
  return labelNamesOf(metric)
    .map((label) => {
      const values = closed[label];
      return values ? `\`${label}\`: ${values.map((v) => `\`${v}\``).join(', ')}` : `\`${label}\``;
    })
    .join('; ');
}

/** The table's Markdown lines: one row per metric of the service, receiver's first, then the worker's. */
export function metricsTable(): string {
  const processes: Array<[string, Registry]> = [
    ['receiver', receiverMetrics().registry],
    ['worker', workerMetrics().registry],
  ];
  const rows = new Map<string, { type: string; where: string[]; labels: string; help: string }>();
  for (const [name, registry] of processes) {
    for (const metric of registry.getMetricsAsArray()) {
      if (!metric.name.startsWith('webhooks_')) continue; // Node's process metrics are prom-client's
      const row = rows.get(metric.name);
      if (row) row.where.push(name);
      else
        rows.set(metric.name, {
          type: typeOf(metric),
          where: [name],
          labels: labelsCell(metric),
          help: metric.help.replaceAll('|', '\\|'),
        });
    }
  }
  return [
    '| Metric | Type | Process | Labels | What |',
    '|---|---|---|---|---|',
    ...[...rows].map(([name, r]) => `| \`${name}\` | ${r.type} | ${r.where.join(', ')} | ${r.labels} | ${r.help} |`),
  ].join('\n');
}

/** The doc with its table made anew (throws when the markers are missing). */
export function withTable(doc: string, table = metricsTable()): string {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`docs/operations.md lacks the lines ${TABLE_START} … ${TABLE_END}`);
  return `${doc.slice(0, start + TABLE_START.length)}\n${table}\n${doc.slice(end)}`;
}

if (require.main === module) {
  fs.writeFileSync(OPERATIONS_DOC, withTable(fs.readFileSync(OPERATIONS_DOC, 'utf8')));
  console.log(`wrote the metrics table of ${OPERATIONS_DOC}`);
}
