/** Before measuring: a few sequential deliveries whose runs must finish, through the whole path. */
import { randomBytes } from 'node:crypto';
import { waitFor } from '../../src/launch/os/wait';
import { benchRobot, type BenchContext } from '../context';

/** A few sequential deliveries whose runs must finish: checks the whole path before measuring. */
export async function warmUp({ api, models, stack, temporal, s }: BenchContext, koaPort: number): Promise<void> {
  const { robotId, url } = await benchRobot(api, stack.origin, 'bench warm-up', 'json', { id: '{{trigger.id}}' });
  const koaUrl = `http://127.0.0.1:${koaPort}${new URL(url).pathname}`;
  for (let i = 0; i < 10; i++) {
    for (const target of [url, koaUrl]) {
      const res = await (target === url ? stack.fetch : fetch)(target, {
        method: 'POST',
        body: JSON.stringify({ id: `warm-${i}` }),
        headers: { 'content-type': 'application/json' },
      });
      if (res.status !== 200) throw new Error(`a warm-up delivery to ${target} answered ${res.status}`);
    }
  }
  await temporal.workflow.start('benchNoop', {
    taskQueue: 'bench-nobody-polls',
    workflowId: `bench-warm-${randomBytes(4).toString('hex')}`,
  });
  await waitFor(
    () => models.RunOutcome.countDocuments({ robotId }),
    (done) => done >= 10,
    120_000,
    {
      intervalMs: s.pollS * 1000,
      message: (done) =>
        `only ${done} of 10 warm-up runs finished (is the worker running? see ${stack.logFile}) within 120 s`,
    },
  );
}
