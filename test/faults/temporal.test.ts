/** The Temporal server is stopped: 503 with Retry-After until it is back, and nothing accepted is lost. */
import { waitFor } from '../../src/launch/os/wait';
import { useFaultStack } from './fault-stack';
import { expectExactlyOneRunEach, range, sendDeliveries } from './deliveries';

const stack = useFaultStack();

it('answers 503 (never 200) while Temporal is down, accepts again once it is back, and loses nothing accepted before', async () => {
  const robot = await stack.robotAtWork();
  const before = await sendDeliveries(robot.webhookUrl, range(0, 300));
  expect(before.accepted.size).toBe(300);

  // Killed, not stopped cleanly: the dev server must find everything in its SQLite file.
  await stack.stop('temporal', 'SIGKILL');
  const during = await Promise.all(
    range(1000, 10).map((id) => fetch(robot.webhookUrl, { method: 'POST', body: JSON.stringify({ id }) })),
  );
  expect(during.map((r) => r.status)).toEqual(Array(10).fill(503));
  expect(during.map((r) => r.headers.get('retry-after'))).toEqual(Array(10).fill('5'));
  const health = await fetch(`${stack.metricsUrl}/healthz`);
  expect(await health.json()).toEqual({ temporal: 'unreachable', mongodb: 'ok' });

  await stack.start('temporal');
  await waitFor(
    () => fetch(`${stack.metricsUrl}/healthz`).then((r) => r.status),
    (s) => s === 200,
  );
  const after = await sendDeliveries(robot.webhookUrl, range(2000, 300), { retryUntil200: true });
  const accepted = new Set([...before.accepted, ...after.accepted]);
  await expectExactlyOneRunEach(stack, robot.robotId, accepted, new Set([...accepted, ...range(1000, 10)]));
  // Every refused start was logged (with its route and ids), and no line holds the URL's token.
  const logs = stack.logs();
  expect(logs).toContain('"route":"/api/webhooks/:identifier/:token"');
  expect(logs).not.toContain(robot.webhookUrl.split('/').pop()!);
});
