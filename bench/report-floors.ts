/**
 * The bench's summary: each headline figure against its floor measured in the same run (acks
 * against bare Temporal starts, one-run deliveries end to end against do-nothing delivery
 * workflows, CSV rows against the do-nothing fan-out), and the trigger cache's shared read
 * (bench/phases/trigger-cache.ts). The floors are in the results file as `floors`.
 */
import type { DeliveryFloorResult } from './phases/delivery-floor';
import type { FanOutBaseline } from './phases/fan-out-baseline';
import type { CsvResult } from './phases/csv';
import type { LevelResult } from './phases/levels';
import type { TriggerCacheResult } from './phases/trigger-cache';
import { pct, table } from './report-sections';
import { round } from './util';

/** A headline figure, its floor in the same run, and the one ÷ the other. */
export interface Floor {
  figure: string;
  value: number;
  floorName: string;
  floor: number;
  ratio: number;
}

export interface Floors {
  /** At each level: acks/s with the worker paused ÷ bare Temporal starts/s (the receiver's connection), in turns. */
  acks: Array<Floor & { connections: number }>;
  /** One-run json deliveries a second end to end ÷ do-nothing delivery workflows a second, in turns. */
  deliveries: Floor | null;
  /** The CSV's runs a second ÷ the do-nothing fan-out's children a second. */
  csvRows: Floor | null;
}

const floor = (figure: string, value: number, floorName: string, under: number): Floor => ({
  figure,
  value,
  floorName,
  floor: under,
  ratio: round(value / Math.max(0.001, under), 3),
});

export function floorsOf(r: {
  levels: LevelResult[];
  deliveryFloor: DeliveryFloorResult | null;
  csv: CsvResult | null;
  fanOutBaseline: FanOutBaseline | null;
}): Floors {
  return {
    acks: r.levels.map((l) => ({
      connections: l.connections,
      ...floor('acks/s, worker paused', l.ackWorkerPaused.perSec, 'bare Temporal starts/s', l.bareTemporal.perSec),
    })),
    deliveries: r.deliveryFloor
      ? floor(
          'one-run deliveries/s end to end',
          r.deliveryFloor.deliveries.perSec,
          'do-nothing delivery workflows/s',
          r.deliveryFloor.floor.perSec,
        )
      : null,
    csvRows:
      r.csv && r.fanOutBaseline
        ? floor('CSV runs/s', r.csv.runsPerSec, 'do-nothing fan-out children/s', r.fanOutBaseline.childrenPerSec)
        : null,
  };
}

export function floorsReport(f: Floors, deliveryFloor: DeliveryFloorResult | null): string {
  const rows = [
    ...f.acks.map((a) => [`${a.figure}, ${a.connections} connections`, a.value, a.floorName, a.floor, a.ratio]),
    ...[f.deliveries, f.csvRows]
      .filter((x): x is Floor => x !== null)
      .map((x) => [x.figure, x.value, x.floorName, x.floor, x.ratio]),
  ];
  if (rows.length === 0) return '';
  const out = [
    'Floors: each headline figure ÷ the least the engine does for it, measured in this run',
    table(['figure', 'value', 'floor', 'floor value', '÷ floor'], rows),
  ];
  if (deliveryFloor)
    out.push(
      `Deliveries ÷ floor by round (${deliveryFloor.rounds} rounds of ${deliveryFloor.deliveries.count / deliveryFloor.rounds} ` +
        `each, the order alternating): ${deliveryFloor.byRound.join(', ')}`,
    );
  return out.join('\n');
}

export function triggerCacheReport(t: TriggerCacheResult): string {
  const row = (name: string, side: TriggerCacheResult['coalesced']) => [
    name,
    side.acks,
    pct(side.latencyMs),
    side.perSec.join(', '),
    side.cpuMsPerAck.receiver,
    side.cpuMsPerAck.ferretdb,
    side.non2xx,
  ];
  return [
    `The trigger cache's shared read: two receivers of this build taking turns at ${t.connections} connections ` +
      `(${t.rounds} rounds), worker paused, ${t.robots} other robots stored, entries kept ${t.ttlMs} ms`,
    table(
      ['receiver', 'acks', 'ack latency', 'acks/s of each load', 'CPU ms/ack: receiver', 'FerretDB', 'non-2xx'],
      [row('shared read', t.coalesced), row('a read per lookup (TRIGGER_CACHE_COALESCE=0)', t.uncoalesced)],
    ),
    `Ack p99, shared read ÷ a read per lookup: ${t.p99Ratio}`,
  ].join('\n');
}
