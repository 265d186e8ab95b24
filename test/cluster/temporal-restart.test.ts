/**
 * Temporal server (PostgreSQL, 4 history shards) restarted under load, behind the entry and two
 * receivers: while it is down every answer is 200 or 503 (never nginx's own 502, never a hang),
 * and every delivery that got a 200, before, during or after, runs exactly once.
 */
import { waitFor } from '../../src/launch/os/wait';
import { expectExactlyOneRunEach, range, sendDeliveries } from '../faults/deliveries';
import { useClusterStack } from './cluster-stack';

const stack = useClusterStack();

it('answers only 200 or 503 while Temporal server restarts under load, and runs every accepted delivery once', async () => {
  const robot = await stack.robotAtWork();
  // Load that goes on through the restart: each delivery sent once, its answer recorded.
  let sending = true;
  const load = (async () => {
    const results = { accepted: new Set<number>(), statuses: new Map<number, number>() };
    for (let from = 0; sending; from += 20) {
      const batch = await sendDeliveries(robot.webhookUrl, range(from, 20), { concurrency: 4 });
      batch.accepted.forEach((id) => results.accepted.add(id));
      batch.statuses.forEach((status, id) => results.statuses.set(id, status));
    }
    return results;
  })();
  await waitFor(
    () => stack.counts(robot.robotId),
    (c) => c.succeeded >= 100,
  );
  // Killed, not stopped cleanly: everything it acknowledged must be in PostgreSQL.
  await stack.cluster.stopServer('temporal', 'SIGKILL');
  // Every receiver has found out (its health says so) before the server comes back.
  await waitFor(
    () => Promise.all(stack.receiverMetricsUrls.map((u) => fetch(`${u}/healthz`).then((r) => r.status))),
    (statuses) => statuses.every((s) => s === 503),
  );
  const down = await sendDeliveries(robot.webhookUrl, range(1_000_000, 10));
  await stack.cluster.startServer('temporal');
  await waitFor(
    () => stack.counts(robot.robotId),
    (c) => c.succeeded >= 300,
  );
  sending = false;
  const { accepted, statuses } = await load;

  expect([...down.statuses.values()]).toEqual(Array(10).fill(503));
  expect(new Set([...statuses.values(), ...down.statuses.values()])).toEqual(new Set([200, 503]));
  const sent = new Set([...statuses.keys(), ...down.statuses.keys()]);
  await expectExactlyOneRunEach(stack, robot.robotId, accepted, sent);
});
