/** The delivery CPU phase's table (bench/phases/delivery-cpu.ts): each side's rate and CPU per delivery by process. */
import type { DeliveryCpuResult, DeliveryCpuSide } from './phases/delivery-cpu';
import { table } from './report-sections';

const ROLES = ['worker', 'temporal', 'ferretdb', 'receiver', 'entry'] as const;

export function deliveryCpuReport(r: DeliveryCpuResult): string {
  const row = (senders: number, side: string, d: DeliveryCpuSide, ratio: string) => [
    senders,
    side,
    d.rows,
    d.runsPerSec,
    ratio,
    d.cpuMsTotal,
    ...ROLES.map((role) => d.cpuMsPerRun[role]),
  ];
  const rows = r.levels.flatMap((l) => [
    row(l.senders, 'today', l.today, l.ratio === null ? 'n/a' : `${l.ratio} (${l.byRound.join(', ')})`),
    ...(l.baseline ? [row(l.senders, r.commit ?? '', l.baseline, '')] : []),
  ]);
  const f = r.floor;
  return [
    'One-run json deliveries end to end, drained: deliveries/s and CPU ms per delivery summed over the stack' +
      (r.commit ? `, today in turns with ${r.commit}` : ''),
    table(['senders', 'code', 'deliveries', 'per s', 'today ÷ it (rounds)', 'CPU ms', ...ROLES], rows),
    `Floor: ${f.count} do-nothing delivery workflows at ${f.perSec}/s, Temporal ${f.temporalCpuMs} ms CPU each ` +
      `(the bench's clients and worker ${f.benchProcessCpuMs} ms)`,
  ].join('\n');
}
