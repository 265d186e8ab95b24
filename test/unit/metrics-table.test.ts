/**
 * docs/operations.md's table of metrics is the code's (scripts/metrics-table.ts), and every metric of
 * the service follows Prometheus' naming conventions (src/core/metrics.ts).
 * `WRITE_DOCS=1 npx jest --selectProjects unit test/unit/metrics-table.test.ts` writes the table anew.
 */
import fs from 'node:fs';
import { receiverMetrics, workerMetrics } from '../../src/core/metrics';
import { metricsTable, OPERATIONS_DOC, TABLE_END, TABLE_START, typeOf, withTable } from '../../scripts/metrics-table';

it('docs/operations.md lists the metrics as the code declares them', () => {
  const doc = fs.readFileSync(OPERATIONS_DOC, 'utf8');
  const made = withTable(doc);
  if (process.env.WRITE_DOCS === '1') fs.writeFileSync(OPERATIONS_DOC, made);
  // On failure: the table differs from src/core/metrics.ts; WRITE_DOCS=1 with this test rewrites it.
  expect(doc).toBe(made);
});

it('makes a row of each metric: its type, process, labels with their closed sets, and help', () => {
  const table = metricsTable();
  expect(table).toContain(
    '| `webhooks_runs_total` | counter | worker | `status`: `succeeded`, `failed` | Runs that ended, by status |',
  );
  expect(table).toContain(
    '| `webhooks_build_info` | gauge | receiver, worker | `version`; `revision`; `node_version` |',
  );
  expect(table).toContain('| `webhooks_ack_duration_seconds` | histogram | receiver |  |');
  expect(table).not.toContain('nodejs_');
  expect(withTable(`a\n${TABLE_START}\nold\n${TABLE_END}\nb`, 'new')).toBe(`a\n${TABLE_START}\nnew\n${TABLE_END}\nb`);
});

it.each([
  ['receiver', receiverMetrics],
  ['worker', workerMetrics],
])('names every metric of the %s under webhooks_, counters with _total, durations in seconds', (_, make) => {
  const ours = make()
    .registry.getMetricsAsArray()
    .filter((m) => !/^(process|nodejs)_/.test(m.name)); // prom-client's own, named by its conventions
  expect(ours.length).toBeGreaterThan(3);
  for (const metric of ours) {
    const { name } = metric;
    const type = typeOf(metric);
    expect(name).toMatch(/^webhooks_[a-z_]+$/);
    if (type === 'counter') expect(name).toMatch(/_total$/);
    else expect(name).not.toMatch(/_total$/);
    if (type === 'histogram') expect(name).toMatch(/_(seconds|bytes)$/);
  }
});
