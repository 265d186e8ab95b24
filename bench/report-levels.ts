/**
 * The bench's tables of the ack levels (bench/phases/levels.ts): acks against the bare baselines,
 * with the worker paused against the ack path's floor, and end to end; and today's receiver
 * against another commit's (bench/phases/receiver-ab.ts).
 */
import type { LevelResult } from './phases/levels';
import type { ReceiverAbResult } from './phases/receiver-ab';
import { pct, table } from './report-sections';

export function levelsReport(levels: LevelResult[]): string[] {
  return [
    '',
    'Ack path and baselines (per second; latency p50 / p95 / p99 in ms)',
    table(
      [
        'connections',
        'acks/s',
        'ack latency',
        'bare Koa/s',
        'Koa latency',
        'ack÷Koa',
        'bare starts/s',
        'start latency',
        'ack÷starts',
        'non-2xx/err',
      ],
      levels.map((l) => [
        l.connections,
        l.ack.perSec,
        pct(l.ack.latencyMs),
        l.bareKoa.perSec,
        pct(l.bareKoa.latencyMs),
        l.ackVsKoa.toFixed(3),
        l.bareTemporal.perSec,
        pct(l.bareTemporal.latencyMs),
        l.ackVsTemporal.toFixed(3),
        `${l.ack.non2xx}/${l.ack.errors}`,
      ]),
    ),
    '',
    'Ack path with the worker paused (SIGSTOP): the server only takes starts, like the bare ones; ' +
      "delivery-shaped starts carry a delivery's memo, search attributes and summary; all loads of a level " +
      '(with the two baselines below) in turns, the order reversed every other round',
    table(
      [
        'connections',
        'acks/s',
        'ack latency',
        'bare starts/s',
        'ack÷starts',
        'by round',
        'delivery-shaped starts/s',
        'CPU ms/ack: receiver',
        'Temporal',
        'Temporal CPU ms/start: bare',
        'delivery-shaped',
        'client CPU ms/start: bare',
        'delivery-shaped',
        'non-2xx/err',
      ],
      levels.map((l) => [
        l.connections,
        l.ackWorkerPaused.perSec,
        pct(l.ackWorkerPaused.latencyMs),
        l.bareTemporal.perSec,
        l.ackWorkerPausedVsTemporal.toFixed(3),
        l.pausedVsTemporalByRound?.map((r) => r.toFixed(2)).join(' ') ?? 'n/a',
        l.deliveryShapedStarts?.perSec ?? 'n/a',
        l.cpuMsPerAck?.receiver ?? 'n/a',
        l.cpuMsPerAck?.temporal ?? 'n/a',
        l.temporalCpuMsPerStart?.bare ?? 'n/a',
        l.temporalCpuMsPerStart?.deliveryShaped ?? 'n/a',
        l.clientCpuMsPerStart?.bare ?? 'n/a',
        l.clientCpuMsPerStart?.deliveryShaped ?? 'n/a',
        `${l.ackWorkerPaused.non2xx}/${l.ackWorkerPaused.errors}`,
      ]),
    ),
    '',
    'Bare starts through the least HTTP server: node:http and the bare start, nothing else ' +
      '(bench/bare-http-start.ts), in turns with the paused acks, worker paused: ' +
      'what the HTTP hop through a second process costs here',
    table(
      [
        'connections',
        'acks/s',
        'latency',
        '÷ bare starts',
        'floor ÷ it',
        'CPU ms/ack: its process',
        'Temporal',
        'Temporal CPU ms/bare start',
      ],
      levels.map((l) => [
        l.connections,
        l.httpStart?.load.perSec ?? 'n/a',
        l.httpStart ? pct(l.httpStart.load.latencyMs) : 'n/a',
        l.httpStart?.vsBareStarts.toFixed(3) ?? 'n/a',
        l.httpStart && l.floor ? (l.floor.load.perSec / Math.max(1, l.httpStart.load.perSec)).toFixed(3) : 'n/a',
        l.httpStart?.cpuMsPerAck ?? 'n/a',
        l.httpStart?.temporalCpuMsPerAck ?? 'n/a',
        l.temporalCpuMsPerStart?.bare ?? 'n/a',
      ]),
    ),
    '',
    "The ack path's floor: Koa and a delivery's start, nothing of the receiver's own (bench/bare-receiver.ts), " +
      'in turns with the paused acks, worker paused',
    table(
      [
        'connections',
        'floor acks/s',
        'floor latency',
        'paused acks ÷ floor',
        'CPU ms/ack: floor',
        'receiver',
        'Temporal: floor',
        'receiver',
        'load generator: floor',
        'receiver',
      ],
      levels.map((l) => [
        l.connections,
        l.floor?.load.perSec ?? 'n/a',
        l.floor ? pct(l.floor.load.latencyMs) : 'n/a',
        l.floor?.ackWorkerPausedVsFloor.toFixed(3) ?? 'n/a',
        l.floor?.cpuMsPerAck ?? 'n/a',
        l.cpuMsPerAck?.receiver ?? 'n/a',
        l.floor?.temporalCpuMsPerAck ?? 'n/a',
        l.cpuMsPerAck?.temporal ?? 'n/a',
        l.floor?.loadGeneratorCpuMsPerAck ?? 'n/a',
        l.cpuMsPerAck?.loadGenerator ?? 'n/a',
      ]),
    ),
    '',
    "End to end (from the delivery's 200 to its run's outcome, ms)",
    table(
      [
        'connections',
        'acked',
        'succeeded',
        'failed',
        'p50',
        'p95',
        'p99',
        'runs/s during load',
        'drain after load (s)',
        'runs/s until drained',
      ],
      levels.map((l) => {
        const e = l.endToEnd;
        return [
          l.connections,
          e.acked,
          e.succeeded,
          e.failed,
          e.latencyMs.p50,
          e.latencyMs.p95,
          e.latencyMs.p99,
          e.runsPerSecDuringLoad,
          e.drainS,
          e.runsPerSecToDrain,
        ];
      }),
    ),
  ];
}

export function receiverAbReport(r: ReceiverAbResult): string {
  return [
    `Receivers: today's against ${r.commit}, taking turns on one stack, worker paused (${r.rounds} rounds a level)`,
    table(
      ['connections', 'CPU ms per ack: today', r.commit, 'today ÷ it', 'acks/s of each load: today', r.commit],
      r.levels.map((l) => [
        l.connections,
        l.today.cpuMsPerAck,
        l.other.cpuMsPerAck,
        l.cpuRatio,
        l.today.perSec.join(', '),
        l.other.perSec.join(', '),
      ]),
    ),
  ].join('\n');
}
