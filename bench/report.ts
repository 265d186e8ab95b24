/** The bench's report: the tables printed at the end, and the results file in bench-results/. */
import { WORKSPACE_READS, type WorkspacesResult } from './phases/workspaces';
import fs from 'node:fs';
import path from 'node:path';
import {
  ablationReport,
  clusterReport,
  historyReport,
  hostileReport,
  idleRobotsReport,
  n8nReport,
  pct,
  table,
} from './report-sections';
import { levelsReport, receiverAbReport } from './report-levels';
import { profileReport } from './report-profile';
import { floorsReport, triggerCacheReport, type Floors } from './report-floors';
import type { DeliveryFloorResult } from './phases/delivery-floor';
import type { DeliveryCpuResult } from './phases/delivery-cpu';
import { deliveryCpuReport } from './report-delivery-cpu';
import type { TriggerCacheResult } from './phases/trigger-cache';
import { WATCH_INTERVAL_MS, type CsvResult } from './phases/csv';
import type { AblationResult } from './phases/ablation';
import type { FieldsPriceRow } from './phases/fields';
import type { SenderChecksResult } from './phases/sender-checks';
import type { InspectorResult } from './phases/inspector';
import type { HostileResult } from './phases/hostile';
import type { IdleRobotsResult } from './phases/idle-robots';
import type { FanOutBaseline } from './phases/fan-out-baseline';
import type { HistoryResult } from './phases/history';
import type { LevelResult } from './phases/levels';
import type { N8nLevel } from './phases/n8n';
import type { ProfileResult } from './phases/profile';
import type { ReceiverAbResult } from './phases/receiver-ab';
import type { Settings } from './settings';
import { round } from './util';

export interface Results {
  startedAt: string;
  finishedAt: string | null;
  machine: Record<string, string | number>;
  settings: Settings;
  levels: LevelResult[];
  fanOutBaseline: FanOutBaseline | null;
  csv: CsvResult | null;
  csvWatched: CsvResult | null;
  /** The same CSV with the dashboard's robot page open. */
  csvPageOpen: CsvResult | null;
  /** The same CSV on a stack with no history keeper: what the runs cost without the run history. */
  csvNoKeeper: CsvResult | null;
  history: HistoryResult | null;
  /** The robots page and the audit log at scale (bench/phases/workspaces.ts). */
  workspaces: WorkspacesResult | null;
  /** The same levels on the cluster (bench/phases/cluster.ts). */
  cluster: LevelResult[] | null;
  /** Ordinary senders under the worst allowed CSV and ten slow uploads (bench/phases/hostile.ts). */
  hostile: HostileResult | null;
  /** Smaller CSVs, every feature on in turns with an earlier commit and with each feature off (phases/ablation.ts). */
  ablation: AblationResult | null;
  /** Today's receiver against another commit's, taking turns on one stack (bench/phases/receiver-ab.ts). */
  receiverAb: ReceiverAbResult | null;
  /** What collecting a delivery's fields costs beside parsing it (bench/phases/fields.ts). */
  fields: FieldsPriceRow[] | null;
  /** A sender's check per delivery, today's against the baseline commit's (phases/sender-checks.ts). */
  senderChecks: SenderChecksResult | null;
  /** The delivery inspector's page on a 1 KiB and a 32 MiB body (phases/inspector.ts). */
  inspector: InspectorResult | null;
  /** Each process's CPU a second with robots idle, at each count (bench/phases/idle-robots.ts). */
  idleRobots: IdleRobotsResult | null;
  /** Where a json delivery's and a CSV row's cost goes (bench/phases/profile.ts). */
  profile: ProfileResult | null;
  /** The ack load against n8n at the same levels, in this run (bench/phases/n8n.ts). */
  n8n?: N8nLevel[];
  /** Two receivers of this build, with the trigger cache's shared read and without (bench/phases/trigger-cache.ts). */
  triggerCache: TriggerCacheResult | null;
  /** One-run deliveries in turns with do-nothing delivery workflows (bench/phases/delivery-floor.ts). */
  deliveryFloor: DeliveryFloorResult | null;
  /** CPU per one-run delivery at 1, 16, 64 senders, against the baseline commit (bench/phases/delivery-cpu.ts). */
  deliveryCpu: DeliveryCpuResult | null;
  /** Each headline figure against its floor in this run (bench/report-floors.ts), set once the phases are done. */
  floors: Floors | null;
  error: string | null;
}

export function report(r: Results): string {
  const m = r.machine;
  const out = [
    '',
    `Webhook service benchmark, ${r.startedAt} (embedded stack: Temporal dev server + FerretDB on SQLite)`,
    `Machine: ${m.cpus} × ${m.cpuModel}, ${m.totalMemoryGiB} GiB, Node ${m.node}, ` +
      `load average at start ${m.loadAverageAtStart}`,
    `Load: ${r.settings.durationS} s per level and kind, JSON deliveries with unique keys, ` +
      'one request in flight per connection',
  ];
  const floors = r.floors && floorsReport(r.floors, r.deliveryFloor);
  if (floors) out.push('', floors);
  if (r.deliveryCpu) out.push('', deliveryCpuReport(r.deliveryCpu));
  if (r.triggerCache) out.push('', triggerCacheReport(r.triggerCache));
  if (r.profile) out.push('', profileReport(r.profile));
  if (r.levels.length > 0) out.push(...levelsReport(r.levels));
  if (r.cluster && r.cluster.length > 0) out.push('', clusterReport(r.levels, r.cluster));
  if (r.n8n && r.n8n.length > 0) out.push('', n8nReport(r.levels, r.n8n));
  if (r.fanOutBaseline) {
    const b = r.fanOutBaseline;
    out.push(
      '',
      "Fan-out baseline (children that do nothing, started like runs: the engine's ceiling)",
      table(
        ['children', 'seconds', 'children/s', 'CPU ms per child: Temporal', 'bench worker'],
        [[b.children, b.seconds, b.childrenPerSec, b.cpuMsPerChild.temporal, b.cpuMsPerChild.benchWorker]],
      ),
    );
  }
  if (r.csv) {
    const c = r.csv;
    out.push(
      '',
      'CSV fan-out (one POST; seconds from the POST until the last run finished)',
      table(
        [
          'rows',
          'ack (ms)',
          'seconds',
          'runs/s',
          'runs/s ÷ baseline',
          'failed',
          'worker peak RSS (MiB)',
          'worker VmHWM (MiB)',
          'worker restarts',
        ],
        [
          [
            c.rows,
            c.ackMs,
            c.seconds,
            c.runsPerSec,
            r.fanOutBaseline ? (c.runsPerSec / r.fanOutBaseline.childrenPerSec).toFixed(2) : 'n/a',
            c.failed,
            c.workerPeakRssMiB ?? 'n/a',
            c.workerHwmMiB ?? 'n/a',
            c.workerRestarts,
          ],
        ],
      ),
      '',
      'CPU milliseconds per run during the CSV fan-out, by process',
      table(
        ['Temporal', 'worker', 'FerretDB', 'receiver'],
        [[c.cpuMsPerRun.temporal, c.cpuMsPerRun.worker, c.cpuMsPerRun.ferretdb, c.cpuMsPerRun.receiver]],
      ),
    );
    if (c.pace)
      out.push(
        `Pace as the store grows: runs/s over the first tenth of the rows ${c.pace.firstTenth}, over the ` +
          `last tenth ${c.pace.lastTenth} (last ÷ first ${c.pace.ratio.toFixed(2)})`,
        table(
          ['tenth', 'runs/s', 'CPU ms per run: Temporal', 'worker', 'FerretDB', 'receiver'],
          (c.pace.tenths ?? []).map((t, i) => [
            i + 1,
            t.runsPerSec,
            t.cpuMsPerRun.temporal,
            t.cpuMsPerRun.worker,
            t.cpuMsPerRun.ferretdb,
            t.cpuMsPerRun.receiver,
          ]),
        ),
      );
  }
  if (r.csv && r.csvNoKeeper) {
    const [c, n] = [r.csv, r.csvNoKeeper];
    out.push(
      '',
      'The same CSV on a stack whose worker runs no history keeper (the runs without the run history)',
      table(
        ['rows', 'seconds', 'runs/s', 'with keeper ÷ without', 'CPU ms per run: Temporal', 'worker', 'FerretDB'],
        [
          [
            n.rows,
            n.seconds,
            n.runsPerSec,
            (c.runsPerSec / n.runsPerSec).toFixed(2),
            n.cpuMsPerRun.temporal,
            n.cpuMsPerRun.worker,
            n.cpuMsPerRun.ferretdb,
          ],
        ],
      ),
    );
  }
  const watchedRuns: Array<[string, CsvResult | null]> = [
    [`a client reads the robot every ${WATCH_INTERVAL_MS} ms`, r.csvWatched],
    ["the dashboard's robot page open", r.csvPageOpen],
  ];
  const watched = watchedRuns.filter((w): w is [string, CsvResult] => w[1] !== null);
  if (r.csv && watched.length > 0) {
    const c = r.csv;
    out.push(
      '',
      'CSV fan-out while watched (the same CSV, each run just before the unwatched one)',
      table(
        [
          'watched by',
          'rows',
          'seconds',
          'runs/s',
          'runs/s ÷ unwatched',
          'API requests',
          'request latency',
          'CPU ms per run: Temporal',
          'worker',
          'FerretDB',
          'watcher',
        ],
        watched.map(([by, w]) => [
          by,
          w.rows,
          w.seconds,
          w.runsPerSec,
          (w.runsPerSec / c.runsPerSec).toFixed(2),
          w.watcher?.polls ?? 0,
          w.watcher ? pct(w.watcher.latencyMs) : 'n/a',
          w.cpuMsPerRun.temporal,
          w.cpuMsPerRun.worker,
          w.cpuMsPerRun.ferretdb,
          w.watcher?.cpuSeconds === undefined ? 'n/a' : round((w.watcher.cpuSeconds * 1000) / w.rows, 2),
        ]),
      ),
    );
  }
  if (r.history) out.push('', historyReport(r.history));
  if (r.workspaces) out.push('', workspacesReport(r.workspaces));
  if (r.ablation) out.push('', ablationReport(r.ablation));
  if (r.receiverAb) out.push('', receiverAbReport(r.receiverAb));
  if (r.fields)
    out.push(
      '',
      'Fields seen: collecting a delivery’s paths, in this process, beside parsing its body (median)',
      table(
        ['body', 'bytes', 'paths', 'µs per delivery', 'JSON.parse µs', '÷ parse'],
        r.fields.map((f) => [f.body, f.bytes, f.paths, f.fieldsUs, f.parseUs, f.vsParse]),
      ),
    );
  if (r.senderChecks)
    out.push(
      '',
      `Sender checks: intake's work for one delivery of a 2 KiB signed event, against ${r.senderChecks.commit} (median)`,
      table(
        ['sender', 'µs today', 'µs baseline', 'today ÷ baseline'],
        r.senderChecks.rows.map((c) => [c.sender, c.todayUs, c.baselineUs, c.ratio]),
      ),
    );
  if (r.inspector)
    out.push(
      '',
      "The delivery inspector: a delivery's page in chromium until its body's first part shows, fresh each time",
      table(
        ['body bytes', 'p50 ms', 'p95 ms', 'JS heap MB'],
        [r.inspector.small, r.inspector.large].map((l) => [l.bodyBytes, l.ms.p50, l.ms.p95, l.heapMb]),
      ),
      `32 MiB ÷ 1 KiB at p50: ${r.inspector.ratio}`,
    );
  if (r.hostile) out.push('', hostileReport(r.hostile));
  if (r.idleRobots) out.push('', idleRobotsReport(r.idleRobots));
  if (r.error) out.push('', `FAILED: ${r.error}`);
  return out.join('\n') + '\n';
}

export function writeResults(r: Results): string {
  const dir = path.resolve(__dirname, '../../bench-results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `bench-${r.startedAt.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(r, null, 2) + '\n');
  return file;
}

/** The robots page and the audit log of a large workspace, against a workspace of 60 (a page and more). */
function workspacesReport(w: WorkspacesResult): string {
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
