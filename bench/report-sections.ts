/**
 * The report's tables: one aligned text table (`table`), and the sections of the phases that
 * measure one thing against another (what each feature costs, hostile load, the cluster, n8n).
 */
import type { HttpLoadSummary, Percentiles } from './load';
import { BEFORE_THE_RUN_HISTORY } from './settings';
import type { AblationResult, SideTotal, Turns } from './phases/ablation';
import type { CsvResult } from './phases/csv';
import { HISTORY_READS, type HistoryResult } from './phases/history';
import type { HostileResult } from './phases/hostile';
import type { IdleRobotsLevel, IdleRobotsResult } from './phases/idle-robots';
import type { LevelResult } from './phases/levels';
import type { N8nLevel } from './phases/n8n';
import { round } from './util';

export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r: string[]) =>
    '  ' + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(cells[0]), '  ' + widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

export const pct = (p: Percentiles) => `${p.p50} / ${p.p95} / ${p.p99}`;

const cpu = (c: CsvResult['cpuMsPerRun']) => [c.temporal, c.worker, c.ferretdb, c.receiver];

/** Per run, what all on spent beyond the other side (ms): a feature's price, by process. */
const dearer = (t: Turns) => {
  const [on, them] = [cpu(t.allOn.cpuMsPerRun), cpu(t.other.cpuMsPerRun)];
  return on.map((ms, i) => round(ms - them[i], 2));
};

/** In how many of the rounds all on spent more per run than the other, by process. */
const dearerIn = (t: Turns) =>
  cpu(t.allOn.cpuMsPerRun).map((_, i) => {
    const n = t.rounds.filter((r) => cpu(r.allOn.cpuMsPerRun)[i] > cpu(r.other.cpuMsPerRun)[i]).length;
    return `${n}/${t.rounds.length}`;
  });

/**
 * What a CSV row costs against the baseline commit, and what each feature costs: each comparison
 * two stacks taking turns (bench/phases/ablation.ts).
 */
export function ablationReport(a: AblationResult): string {
  const out: string[] = [];
  const cpuHeads = ['CPU ms/run: temporal', 'worker', 'ferretdb', 'receiver'];
  const rounds = (t: Turns) => t.rounds.map((r) => r.ratio.toFixed(2)).join(', ');
  if (a.baseline) {
    const b = a.baseline;
    const side = (name: string, t: SideTotal) => [name, t.rows, t.seconds, t.runsPerSec, ...cpu(t.cpuMsPerRun)];
    const which = b.commit.startsWith(BEFORE_THE_RUN_HISTORY) ? ' (before the run history)' : '';
    out.push(
      `Every feature on against ${b.commit}${which}: ` +
        `${b.rounds.length} rounds of ${b.rounds[0]?.allOn.rows ?? 0} rows each, the two stacks taking turns`,
      table(
        ['code', 'rows', 'seconds', 'runs/s', ...cpuHeads],
        [side('today, every feature on', b.allOn), side(`${b.commit} (baseline)`, b.other)],
      ),
      `  today ÷ baseline: ${b.ratio.toFixed(3)} (rounds: ${rounds(b)})`,
      '',
    );
  }
  if (a.features.length > 0) {
    const f0 = a.features[0];
    out.push(
      `What each feature costs: ${a.rows} rows on each side, every feature on and the feature off taking ` +
        `turns (${f0.rounds.length} rounds of ${f0.rounds[0]?.allOn.rows ?? 0}); its price per run is what ` +
        `every feature on spent beyond it off, and in how many rounds it was dearer`,
      table(
        [
          'without',
          'runs/s',
          'all on',
          'all on ÷ without (rounds)',
          'price ms/run: temporal',
          'worker',
          'ferretdb',
          'receiver',
          'dearer in rounds: temporal, worker, ferretdb, receiver',
        ],
        a.features.map((f) => [
          f.name,
          f.other.runsPerSec,
          f.allOn.runsPerSec,
          `${f.ratio.toFixed(2)} (${rounds(f)})`,
          ...dearer(f),
          dearerIn(f).join(', '),
        ]),
      ),
    );
  }
  return out.join('\n');
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
    ...(h.runsAlone
      ? [
          table(
            ['a steady sender (a delivery every 200 ms)', 'runs', 'sent to finished ms p50 / p95 / p99'],
            [
              ['alone', h.runsAlone.runs, pct(h.runsAlone.latencyMs)],
              ['while the CSV fans out', h.runsUnderAttack.runs, pct(h.runsUnderAttack.latencyMs)],
            ],
          ),
          `  run latency ÷ alone: p50 ${h.runP50Ratio.toFixed(2)}, p99 ${h.runP99Ratio.toFixed(2)}`,
        ]
      : []),
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
        'CPU ms: Temporal / PostgreSQL per bare start',
        'per paused ack',
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
          `${c.temporalCpuMsPerStart.bare} / ${c.postgresqlCpuMs?.bareStart ?? 'n/a'}`,
          `${c.cpuMsPerAck.temporal} / ${c.postgresqlCpuMs?.ack ?? 'n/a'}`,
        ];
      }),
    ),
    '  runs/s: runs per second from the start of the load until the last one finished.',
  ].join('\n');
}

/** Our acks with the worker running beside n8n's (Webhook → Set, SQLite), level by level, measured in this run. */
export function n8nReport(ours: LevelResult[], n8n: N8nLevel[]): string {
  return [
    "n8n beside us (the same load: ours with the worker running; n8n's Webhook node answering on receipt → Set " +
      'node, SQLite, alone on the machine)',
    table(
      [
        'connections',
        'acks/s ours',
        'n8n',
        'ours ÷ n8n',
        'ack p99 ms ours',
        'n8n',
        'n8n latency',
        'n8n non-2xx/err',
        'n8n drain s',
      ],
      n8n.map((n) => {
        const o = ours.find((l) => l.connections === n.connections)?.ack;
        return [
          n.connections,
          o?.perSec ?? 'n/a',
          n.ack.perSec,
          o && n.ack.perSec > 0 ? (o.perSec / n.ack.perSec).toFixed(2) : 'n/a',
          o?.latencyMs.p99 ?? 'n/a',
          n.ack.latencyMs.p99,
          pct(n.ack.latencyMs),
          `${n.ack.non2xx}/${n.ack.errors}`,
          n.drainS,
        ];
      }),
    ),
    "  n8n latency: p50 / p95 / p99 ms; drain: from the end of the load until n8n had finished the level's executions.",
  ].join('\n');
}

/** History reads at each number of runs per robot, against one page's, and the robot page in chromium. */
export function historyReport(h: HistoryResult): string {
  const out: string[] = [];
  const rows = [
    ['1 page (baseline)', ...HISTORY_READS.map((k) => pct(h.baselineMs[k]))],
    ...h.levels.map((l) => [String(l.runsPerRobot), ...HISTORY_READS.map((k) => pct(l.readsMs[k]))]),
  ];
  out.push(
    `History reads, ms p50 / p95 / p99 (${h.samples} requests each through the API; ` +
      'as many runs of another robot stored)',
    table(['runs per robot', ...HISTORY_READS], rows),
    '',
    'p95 ÷ baseline p95, and seconds to seed and for the history to show every run',
    table(
      ['runs per robot', ...HISTORY_READS, 'seed s', 'history built s'],
      h.levels.map((l) => [
        l.runsPerRobot,
        ...HISTORY_READS.map((k) => (l.readsMs[k].p95 / h.baselineMs[k].p95).toFixed(2)),
        round(l.seedSeconds, 1),
        round(l.keeperSeconds, 1),
      ]),
    ),
  );
  if (h.baselineRobotPageMs) {
    out.push(
      '',
      "The dashboard's robot page, first load in chromium until its runs show, ms p50 / p95 / p99 (10 loads)",
      table(
        ['runs per robot', 'robot page', 'p95 ÷ baseline p95'],
        [
          ['1 page (baseline)', pct(h.baselineRobotPageMs), '1.00'],
          ...h.levels.map((l) => [
            String(l.runsPerRobot),
            l.robotPageMs ? pct(l.robotPageMs) : '-',
            l.robotPageMs ? (l.robotPageMs.p95 / h.baselineRobotPageMs!.p95).toFixed(2) : '-',
          ]),
        ],
      ),
    );
  }
  return out.join('\n');
}

/** CPU ms a second per robot beyond the first count, over the robots beyond it. */
const perIdleRobot = (levels: IdleRobotsLevel[], l: IdleRobotsLevel, role: 'ferretdb' | 'worker') =>
  l === levels[0] ? null : (l.cpuMsPerSec[role] - levels[0].cpuMsPerSec[role]) / (l.robots - levels[0].robots);

/**
 * Each process's CPU a second with robots idle and, per robot, beyond the first count, over the
 * robots beyond it; with a baseline build, its table too and today's per-robot cost over its.
 */
export function idleRobotsReport({ levels, baseline }: IdleRobotsResult): string {
  const out = [
    `Idle robots: each process's CPU a second over ${levels[0].windowS} s with that many robots put to work ` +
      '(one delivery each), their runs in the history, and nothing sent',
    idleTable(levels),
  ];
  if (baseline) {
    out.push(`The same on ${baseline.commit}:`, idleTable(baseline.levels));
    const ratios = levels.slice(1).map((l, i) => {
      const b = baseline.levels[i + 1];
      const ratio = (role: 'ferretdb' | 'worker') => {
        const [ours, theirs] = [perIdleRobot(levels, l, role)!, perIdleRobot(baseline.levels, b, role)!];
        return theirs > 0 ? round(ours / theirs, 3) : 'n/a';
      };
      return [l.robots, ratio('ferretdb'), ratio('worker')];
    });
    out.push(`Per robot, today ÷ ${baseline.commit}:`, table(['robots', 'ferretdb', 'worker'], ratios));
  }
  return out.join('\n');
}

function idleTable(levels: IdleRobotsLevel[]): string {
  const perRobot = (l: IdleRobotsLevel, role: 'ferretdb' | 'worker') => {
    const v = perIdleRobot(levels, l, role);
    return v === null ? 'n/a' : round(v, 2);
  };
  return table(
    ['robots', 'CPU ms/s: ferretdb', 'worker', 'temporal', 'receiver', 'per robot: ferretdb', 'worker'],
    levels.map((l) => [
      l.robots,
      l.cpuMsPerSec.ferretdb,
      l.cpuMsPerSec.worker,
      l.cpuMsPerSec.temporal,
      l.cpuMsPerSec.receiver,
      perRobot(l, 'ferretdb'),
      perRobot(l, 'worker'),
    ]),
  );
}
