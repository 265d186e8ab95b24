/**
 * The same levels on the cluster (docs/cluster.md): Temporal server on PostgreSQL with 4 history
 * shards, 2 receivers and 2 workers behind nginx. Each level's baselines are measured there too
 * (bare Temporal starts on the cluster's server, bare Koa), so the cluster's ack rate and runs/s
 * stand beside the dev server's, each against its own Temporal's bare starts.
 */
import { clientsOf } from '../context';
import type { Settings } from '../settings';
import { launchStack } from '../stack';
import { log } from '../util';
import { measureLevel, type LevelResult } from './levels';
import { warmUp } from './warm-up';

export async function clusterLevels(
  s: Settings,
  koaPort: number,
  cleanups: Array<() => Promise<void>>,
): Promise<LevelResult[]> {
  log('starting the cluster (PostgreSQL, Temporal server, FerretDB, 2 receivers, 2 workers, nginx)');
  const stack = await launchStack({ kind: 'cluster', logLevel: s.logLevel, startTimeoutS: 300 });
  cleanups.push(() => stack.stop(s.keepData));
  await stack.ready;
  const clients = await clientsOf(stack, s);
  cleanups.push(() => clients.close());
  log('cluster: warming up (10 deliveries through the whole path)');
  await warmUp(clients, koaPort);
  const levels: LevelResult[] = [];
  for (const connections of s.levels) {
    log(`cluster: ${connections} connections`);
    levels.push(await measureLevel(connections, { ...clients, koaPort }));
  }
  return levels;
}
