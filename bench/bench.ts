/**
 * `npm run bench`: the service's throughput on the embedded stack, with its baselines, in one run.
 *
 *   1. Ack path: JSON deliveries with unique keys per second and their ack latency, per
 *      concurrency level (autocannon in this process; the receiver is its own process).
 *   2. Baselines at the same levels: a bare Koa route answering 200 (own process), and a bare
 *      Temporal client starting workflows; the ack rate as a ratio of each. The ack load runs
 *      twice: with the worker paused (the server only takes starts, as for the bare ones) and
 *      with it running (the server also runs the deliveries).
 *   3. End to end: from a delivery's 200 to its run's outcome, and runs finished per second
 *      while the ack load ran.
 *   4. CSV fan-out: one CSV of BENCH_CSV_ROWS rows; seconds until every run succeeded, runs per
 *      second, and the worker's peak RSS. Before it, the engine's ceiling for a fan-out: children
 *      that do nothing, started the way the delivery workflow starts runs (bench/workflows.ts).
 *   5. Hostile load: ordinary senders' acks while one URL takes the worst allowed CSV and ten slow
 *      uploads, as a ratio of the same senders alone (docs/security.md).
 *   6. Ablation: smaller CSVs on two fresh stacks side by side taking turns, every feature on against
 *      an earlier commit, then against each feature off in turn (what each feature costs a row).
 *   7. Cluster: with the embedded stack stopped, levels 1-3 again on the cluster (Temporal server
 *      on PostgreSQL, 2 receivers and 2 workers behind nginx), each against its own baselines.
 *   8. n8n: with the embedded stack stopped (and before the cluster starts), the ack load of 1 at
 *      the same levels against n8n (a Webhook node feeding a Set node, SQLite), drained before each
 *      level; our acks/s with the worker running are printed as a ratio of n8n's.
 *   9. Receivers (BENCH_RECEIVER_AB, off by default): today's receiver and another commit's on one
 *      stack of their own, worker paused, taking turns at the same levels: each one's CPU per ack.
 *  10. Idle robots: on a stack of its own, each process's CPU a second with robots put to work and
 *      nothing sent, at each count of BENCH_IDLE_ROBOTS.
 *  11. Profile (first on the main stack, after the warm-up): where a json delivery's and a CSV
 *      row's cost goes: each process's CPU, the Temporal server's requests, one history each.
 *  12. Sender checks (with BENCH_BASELINE_COMMIT): what intake asks of an app's sender for one delivery,
 *      today's code against the baseline's, in this process.
 *  13. Trigger cache (BENCH_TRIGGER_CACHE, 64): two receivers of this build on a stack of their own, with
 *      the cache's shared read and without (TRIGGER_CACHE_COALESCE=0), taking turns: their ack p99.
 *  14. Floors: after the levels, one-run json deliveries in turns with do-nothing delivery workflows
 *      (BENCH_FLOOR_DELIVERIES); the summary prints acks ÷ bare starts, deliveries ÷ that floor and
 *      CSV rows ÷ the do-nothing fan-out (bench/report-floors.ts), first.
 *  15. Delivery CPU (BENCH_DELIVERY_CPU): one-run json deliveries at 1, 16 and 64 senders on a stack of
 *      today's code and one of BENCH_BASELINE_COMMIT taking turns: deliveries a second end to end and
 *      each process's CPU per delivery, beside the do-nothing delivery workflow's CPU.
 *
 * Prints a table and writes bench-results/bench-<timestamp>.json. Settings (environment):
 * bench/settings.ts. The phases: bench/phases/ (levels 1-3, fan-out baseline and CSV 4, history
 * reads, warm-up); the report: bench/report.ts.
 */
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { benchRobot, clientsOf } from './context';
import { csvFanOut, csvWithoutKeeper, warmCsv } from './phases/csv';
import { clusterLevels } from './phases/cluster';
import { fanOutBaseline } from './phases/fan-out-baseline';
import { historyBench } from './phases/history';
import { hostileLoad } from './phases/hostile';
import { workspacesBench } from './phases/workspaces';
import { idleRobots } from './phases/idle-robots';
import { ablation } from './phases/ablation';
import { fieldsPrice } from './phases/fields';
import { measureLevel } from './phases/levels';
import { receiverAb } from './phases/receiver-ab';
import { triggerCacheAb } from './phases/trigger-cache';
import { deliveryFloor } from './phases/delivery-floor';
import { floorsOf } from './report-floors';
import { n8nLevels } from './phases/n8n';
import { profile } from './phases/profile';
import { deliveryCpu } from './phases/delivery-cpu';
import { senderChecks } from './phases/sender-checks';
import { inspectorLoads } from './phases/inspector';
import { warmUp } from './phases/warm-up';
import { report, writeResults, type Results } from './report';
import { machineFacts, readSettings } from './settings';
import { launchStack, startBaseline } from './stack';
import { log } from './util';

async function main(): Promise<number> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const s = readSettings();
  const results: Results = {
    startedAt: new Date().toISOString(),
    finishedAt: null,
    machine: machineFacts(),
    settings: s,
    levels: [],
    fanOutBaseline: null,
    csv: null,
    csvWatched: null,
    csvPageOpen: null,
    csvNoKeeper: null,
    history: null,
    workspaces: null,
    cluster: null,
    hostile: null,
    ablation: null,
    receiverAb: null,
    fields: null,
    senderChecks: null,
    inspector: null,
    idleRobots: null,
    profile: null,
    triggerCache: null,
    deliveryFloor: null,
    deliveryCpu: null,
    floors: null,
    error: null,
  };
  const cleanups: Array<() => Promise<void>> = [];
  let stopping: Promise<void> | undefined;
  const stopAll = () =>
    (stopping ??= (async () => {
      for (const cleanup of cleanups.slice().reverse())
        await cleanup().catch((err: Error) => log(`while stopping: ${err.message}`));
    })());
  // What was measured is reported and written, whether the run ended or was interrupted.
  let finishing: Promise<void> | undefined;
  const finish = () => (finishing ??= reportAll());
  const reportAll = async () => {
    results.finishedAt = new Date().toISOString();
    results.floors = floorsOf(results);
    log('stopping everything');
    await stopAll();
    process.stdout.write(report(results));
    process.stdout.write(`\nResults: ${writeResults(results)}\n`);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping everything, then reporting the phases that finished`);
      results.error ??= `interrupted (${signal})`;
      void finish().finally(() => process.exit(130));
    });
  }

  try {
    results.fields = fieldsPrice();
    if (s.baselineCommit && s.senderChecks) results.senderChecks = senderChecks(s.baselineCommit, s.ablationRounds);
    // First and on stacks of their own, so that the main stack's figures are as they always were.
    if (s.deliveryCpu > 0) results.deliveryCpu = await deliveryCpu(s, cleanups);
    if (s.ablationRows > 0) results.ablation = await ablation(s, cleanups);
    if (s.idleRobots.length > 0) results.idleRobots = await idleRobots(s, cleanups);
    if (s.receiverAb && s.levels.length > 0) results.receiverAb = await receiverAb(s, cleanups);
    if (s.triggerCacheConnections > 0) results.triggerCache = await triggerCacheAb(s, cleanups);
    if (s.csvRows > 0 && s.csvNoKeeper) results.csvNoKeeper = await csvWithoutKeeper(s, cleanups);
    log('starting the embedded stack');
    // The worst CSV the caps allow is the hostile phase's: the stack's row cap is set to it, and so is
    // a URL's quota an hour (every CSV phase has a robot of its own), which the hostile CSV takes whole.
    const rows = String(Math.max(s.hostileCsvRows, s.csvRows, s.csvWarmup, 1));
    // Every phase's robots are of one workspace: its quota is out of the way.
    const env = { CSV_MAX_ROWS: rows, FANOUT_ROWS_PER_HOUR: rows, FANOUT_ROWS_PER_HOUR_PER_WORKSPACE: '1000000000' };
    const stack = await launchStack({ logLevel: s.logLevel, startTimeoutS: 180, env });
    // Its data folder and logs are kept on a failure (not on an interruption).
    const failed = () => results.error !== null && !results.error.startsWith('interrupted');
    cleanups.push(() => stack.stop(s.keepData || failed()));
    await stack.ready;
    const koa = await startBaseline('bare-koa');
    cleanups.push(() => koa.stop());
    const temporalEnv = { TEMPORAL_ADDRESS: stack.temporalAddress, TEMPORAL_NAMESPACE: stack.namespace };
    const httpStart = await startBaseline('bare-http-start', temporalEnv);
    cleanups.push(() => httpStart.stop());
    const floor = await startBaseline('bare-receiver', temporalEnv);
    cleanups.push(() => floor.stop());
    const clients = await clientsOf(stack, s);
    cleanups.push(() => clients.close());
    const { api, models, temporal } = clients;

    // First, while the store holds nothing else: the baseline of the history reads is an empty store.
    if (s.historyLevels.length > 0) {
      results.history = await historyBench({
        api,
        models,
        samples: s.historySamples,
        levels: s.historyLevels,
        pollS: s.pollS,
        log,
        dashboard: { baseUrl: api.baseUrl, adminToken: stack.adminToken },
        newRobot: async (name) => (await benchRobot(api, stack.origin, name, 'json', { n: '{{trigger.n}}' })).robotId,
      });
    }
    if (s.inspector)
      results.inspector = await inspectorLoads(api, { baseUrl: api.baseUrl, adminToken: stack.adminToken });
    if (s.workspaceRobots > 0) {
      const scale = { robots: s.workspaceRobots, entries: s.workspaceAudit, samples: s.historySamples };
      results.workspaces = await workspacesBench(api, models, scale);
    }
    log('warming up (10 deliveries through the whole path)');
    await warmUp(clients, koa.port);
    if (s.profile > 0) results.profile = await profile(clients, s.profile);
    for (const connections of s.levels) {
      results.levels.push(await measureLevel(connections, { ...clients, koaPort: koa.port, httpStart, floor }));
    }
    if (s.floorDeliveries > 0) results.deliveryFloor = await deliveryFloor(clients);
    if (s.fanOutBaseline > 0) results.fanOutBaseline = await fanOutBaseline(stack, temporal, s);
    if (s.csvRows > 0) {
      await warmCsv(clients);
      // Watched first: later CSVs on one stack ran faster, so this order can only make watching look worse.
      if (s.csvWatched) results.csvWatched = await csvFanOut(clients, 'api');
      if (s.csvPageOpen) results.csvPageOpen = await csvFanOut(clients, 'page');
      results.csv = await csvFanOut(clients);
    }
    // Last on this stack: the hostile CSV is still fanning out when it ends.
    if (s.hostileConnections > 0) results.hostile = await hostileLoad(clients, s.hostileConnections, s.hostileCsvRows);
    const n8n = s.n8n && s.levels.length > 0 && Boolean(process.env.N8N_BIN);
    if (s.n8n && !n8n)
      log(`n8n phase skipped: ${s.levels.length === 0 ? 'no levels' : 'N8N_BIN is not set (scripts/n8n.sh)'}`);
    if ((s.cluster && s.levels.length > 0) || n8n) {
      // Alone on the machine: the embedded stack is stopped first.
      await clients.close();
      await stack.stop(s.keepData);
    }
    if (n8n) results.n8n = await n8nLevels(s, cleanups);
    if (s.cluster && s.levels.length > 0) results.cluster = await clusterLevels(s, koa.port, cleanups);
  } catch (err) {
    results.error = (err as Error).message;
  }
  await finish();
  return results.error ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  },
);
