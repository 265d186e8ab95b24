/** The process metrics both processes export (src/core/metrics.ts) beside their own. */
import { receiverMetrics, workerMetrics } from '../../src/core/metrics';

it.each([
  ['receiver', receiverMetrics],
  ['worker', workerMetrics],
])("the %s exports Node's process metrics beside its own", async (_, make) => {
  const text = await make().registry.metrics();
  for (const name of ['process_cpu_seconds_total', 'nodejs_eventloop_lag_p99_seconds', 'nodejs_heap_size_used_bytes'])
    expect(text).toContain(`\n${name} `);
});
