/** The report's profile section: where a json delivery's and a CSV row's cost goes. */
import type { DeliveryProfile, ProfileResult } from './phases/profile';
import { table } from './report-sections';

/** Where a json delivery's and a CSV row's cost goes (bench/phases/profile.ts). */
export function profileReport(p: ProfileResult): string {
  const shown = [p.json, p.csv];
  const histories = [
    ['json delivery', p.json.history],
    ['csv delivery', p.csv.history],
    ['csv row (its child run)', p.csv.child],
  ] as const;
  const kinds = [...new Set(histories.flatMap(([, h]) => (h ? Object.keys(h.byKind) : [])))].sort();
  const ops = (pick: (d: DeliveryProfile) => Record<string, number>) => [
    ...new Set(shown.flatMap((d) => Object.keys(pick(d)))),
  ];
  return [
    `Profile: ${p.json.units} json deliveries one after another, then a CSV of ${p.csv.units} rows`,
    table(
      ['per', 'seconds', 'Temporal CPU ms', 'worker', 'FerretDB', 'receiver'],
      shown.map((d) => [
        d.what,
        d.seconds,
        d.cpuMsPer.temporal,
        d.cpuMsPer.worker,
        d.cpuMsPer.ferretdb,
        d.cpuMsPer.receiver,
      ]),
    ),
    '',
    "  The Temporal server's persistence requests per delivery / per row, by operation:",
    table(
      ['operation', 'json delivery', 'csv row'],
      ops((d) => d.persistence).map((op) => [op, p.json.persistence[op] ?? 0, p.csv.persistence[op] ?? 0]),
    ),
    '',
    "  Its visibility store's requests:",
    table(
      ['operation', 'json delivery', 'csv row'],
      ops((d) => d.visibility).map((op) => [op, p.json.visibility[op] ?? 0, p.csv.visibility[op] ?? 0]),
    ),
    '',
    '  One history of each (events by kind; tasks; bytes):',
    table(
      ['', ...histories.map(([name]) => name)],
      [
        ['events', ...histories.map(([, h]) => h?.events ?? 0)],
        ['workflow tasks', ...histories.map(([, h]) => h?.workflowTasks ?? 0)],
        ['activity tasks', ...histories.map(([, h]) => h?.activityTasks ?? 0)],
        ['local activities', ...histories.map(([, h]) => h?.localActivities ?? 0)],
        ['history bytes', ...histories.map(([, h]) => h?.bytes ?? 0)],
        ['payload bytes', ...histories.map(([, h]) => h?.payloadBytes ?? 0)],
        ...kinds.map((k) => [k, ...histories.map(([, h]) => h?.byKind[k] ?? 0)]),
      ],
    ),
    ...histories.flatMap(([name, h]) => (h?.failedTasks ?? []).map((f) => `  ${name}: a failed workflow task: ${f}`)),
  ].join('\n');
}
