/**
 * A worker of the bench's own workflows (./workflows.ts), in this process, on a task queue of its own:
 * the baselines and floors the bench measures the service against (the fan-out baseline, the delivery
 * floor) run their do-nothing workflows on it.
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import { nativeConnectionOptions } from '../src/temporal/socket-address';
import type { BenchStack } from './stack';

/** Runs `work` while a worker with `activities` polls a task queue named after `name`, handed to `work`. */
export async function withBenchWorker<T>(
  stack: BenchStack,
  name: string,
  activities: object,
  work: (taskQueue: string) => Promise<T>,
): Promise<T> {
  const taskQueue = `bench-${name}-${randomBytes(3).toString('hex')}`;
  const connection = await NativeConnection.connect(
    nativeConnectionOptions(stack.temporalAddress, { tls: stack.temporalTls() }),
  );
  try {
    const worker = await Worker.create({
      connection,
      namespace: stack.namespace,
      taskQueue,
      workflowsPath: require.resolve('./workflows'),
      activities,
    });
    return await worker.runUntil(() => work(taskQueue));
  } finally {
    await connection.close();
  }
}
