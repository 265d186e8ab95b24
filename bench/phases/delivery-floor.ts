/**
 * One-run deliveries end to end against their floor (issue 55 item 7): on the main stack after the
 * levels, BENCH_FLOOR_DELIVERIES json deliveries that each make one run (./json-deliveries.ts: 16
 * senders, from the first send until the last run's outcome) take turns with as many do-nothing
 * delivery workflows (bench/workflows.ts `benchDelivery`: started, one local activity, completed),
 * started by 16 of the bench's own clients and run by its own worker, from the first start until
 * the last activity ran: BENCH_LEVEL_ROUNDS rounds, the order alternating. Both wait until Temporal
 * counts every workflow completed. Deliveries a second ÷ the floor's is what the service adds to
 * the least a durable delivery with one step costs this engine on this machine.
 */
import { randomBytes } from 'node:crypto';
import { waitFor } from '../../src/launch/os/wait';
import { withBenchWorker } from '../bench-worker';
import { completions, type BenchContext } from '../context';
import { ranAt, benchNothing } from '../floor-activities';
import { startOptions } from '../load';
import { log, round } from '../util';
import { SCAN_POLL_S } from './csv';
import { jsonDeliveries } from './json-deliveries';

/** Clients starting the do-nothing deliveries at once, as many as json-deliveries.ts's senders. */
const STARTERS = 16;

export interface DeliveryFloorSide {
  count: number;
  seconds: number;
  perSec: number;
}

export interface DeliveryFloorResult {
  rounds: number;
  deliveries: DeliveryFloorSide;
  floor: DeliveryFloorSide;
  /** Each round's deliveries/s ÷ the floor's. */
  byRound: number[];
  /** Deliveries/s ÷ the floor's, all counts over all seconds of each. */
  ratio: number;
}

/** `count` do-nothing deliveries on `taskQueue`: seconds from the first start until the last activity ran. */
export async function floorTurn(ctx: BenchContext, taskQueue: string, count: number): Promise<number> {
  const { temporal, s } = ctx;
  const done = completions(temporal, 'benchDelivery');
  await done.start();
  ranAt.length = 0;
  const tag = randomBytes(4).toString('hex');
  const startedAt = Date.now();
  let next = 0;
  const starter = async () => {
    for (let n = next++; n < count; n = next++)
      await temporal.workflow.start('benchDelivery', startOptions('bare', taskQueue, `bench-floor-${tag}-${n}`));
  };
  await Promise.all(Array.from({ length: STARTERS }, starter));
  await waitFor(
    () => done.sinceStart(),
    (finished) => finished >= count,
    s.csvTimeoutS * 1000,
    {
      intervalMs: Math.max(s.pollS, SCAN_POLL_S) * 1000,
      message: (finished) => `only ${finished} of ${count} do-nothing deliveries finished within ${s.csvTimeoutS} s`,
    },
  );
  return (ranAt.reduce((a, b) => Math.max(a, b), startedAt) - startedAt) / 1000;
}

function sideOf(turns: Array<{ count: number; seconds: number }>): DeliveryFloorSide {
  const count = turns.reduce((n, t) => n + t.count, 0);
  const seconds = turns.reduce((n, t) => n + t.seconds, 0);
  return { count, seconds: round(seconds, 1), perSec: round(count / seconds, 1) };
}

export async function deliveryFloor(ctx: BenchContext): Promise<DeliveryFloorResult> {
  const { stack, s } = ctx;
  const rounds = s.levelRounds;
  const each = Math.ceil(s.floorDeliveries / rounds);
  return withBenchWorker(stack, 'floor', { benchNothing }, async (taskQueue) => {
    const deliveries: DeliveryFloorSide[] = [];
    const floor: DeliveryFloorSide[] = [];
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 ? (['floor', 'deliveries'] as const) : (['deliveries', 'floor'] as const);
      for (const side of order) {
        log(`delivery floor: round ${r + 1} of ${rounds}, ${each} ${side === 'floor' ? 'do-nothing ' : ''}deliveries`);
        if (side === 'deliveries') {
          const { rows, seconds } = await jsonDeliveries(ctx, each);
          deliveries.push({ count: rows, seconds, perSec: round(rows / seconds, 1) });
        } else {
          const seconds = await floorTurn(ctx, taskQueue, each);
          floor.push({ count: each, seconds, perSec: round(each / seconds, 1) });
        }
      }
    }
    const [d, f] = [sideOf(deliveries), sideOf(floor)];
    return {
      rounds,
      deliveries: d,
      floor: f,
      byRound: deliveries.map((x, i) => round(x.perSec / floor[i].perSec, 3)),
      ratio: round(d.perSec / f.perSec, 3),
    };
  });
}
