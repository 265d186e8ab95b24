/**
 * The ablation's json workload (BENCH_ABLATION_KIND=json): one-run json deliveries from several
 * senders at once, measured as a CSV is (bench/phases/csv.ts), for a change to a delivery's own path.
 */
import { waitFor } from '../../src/launch/os/wait';
import { benchRobot, completions, type BenchContext } from '../context';
import { cpuMsPer, stackCpuSeconds } from '../processes';
import { log, round } from '../util';
import { SCAN_POLL_S, type CsvResult } from './csv';

/** Senders of the ablation's json deliveries (BENCH_ABLATION_KIND=json), each one request at a time. */
const JSON_SENDERS = 16;

/**
 * `count` json deliveries that each make one run (a robot of its own), from `senders` at once
 * (JSON_SENDERS unless told), measured like a CSV: from the first send until the last run's outcome, waiting until
 * Temporal counts every delivery workflow completed (every stack counts the same way; a one-run
 * delivery runs in its own workflow), and each process's CPU per run. The ablation's workload for
 * a change to a delivery's own path, which a CSV's rows do not take.
 */
export async function jsonDeliveries(ctx: BenchContext, count: number, senders = JSON_SENDERS): Promise<CsvResult> {
  const { api, models, stack, temporal, s } = ctx;
  const { robotId, url } = await benchRobot(api, stack.origin, 'bench json', 'json', { n: '{{trigger.n}}' });
  log(`json deliveries: ${count} from ${senders} senders`);
  const done = completions(temporal, 'deliveryWorkflow');
  await done.start();
  const cpuBefore = stackCpuSeconds(stack.pid);
  const sentAt = Date.now();
  let next = 0;
  const sender = async () => {
    for (let n = next++; n < count; n = next++) {
      const res = await stack.fetch(url, {
        method: 'POST',
        body: JSON.stringify({ n, at: sentAt }),
        headers: { 'content-type': 'application/json' },
      });
      if (res.status !== 200) throw new Error(`a json delivery was answered ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: senders }, sender));
  const ackMs = Date.now() - sentAt;
  await waitFor(
    () => done.sinceStart(),
    (finished) => finished >= count,
    s.csvTimeoutS * 1000,
    {
      intervalMs: Math.max(s.pollS, SCAN_POLL_S) * 1000,
      message: (finished) => `only ${finished} of ${count} json deliveries finished within ${s.csvTimeoutS} s`,
    },
  );
  // Temporal is asked every SCAN_POLL_S: the last run's outcome says when the work ended.
  const last = await models.RunOutcome.findOne({ robotId }, { finishedAt: 1 }).sort({ finishedAt: -1 }).lean();
  const seconds = ((last?.finishedAt.getTime() ?? Date.now()) - sentAt) / 1000;
  return {
    rows: count,
    ackMs,
    seconds: round(seconds, 1),
    runsPerSec: round(count / seconds, 1),
    failed: await models.RunOutcome.countDocuments({ robotId, status: 'failed' }),
    workerPeakRssMiB: null,
    workerHwmMiB: null,
    workerRestarts: 0,
    cpuMsPerRun: cpuMsPer(cpuBefore, stackCpuSeconds(stack.pid), count),
    pace: null,
    watcher: null,
  };
}
