/** Waiting on a robot's deliveries and runs in the in-process stack (./stack.ts). */
import { waitFor } from '../../src/launch/os/wait';
import type { Stack } from './stack';

/** The robot's deliveries once `count` of them are recorded (newest first). */
export const deliveriesOnce = (stack: Stack, robotId: string, count: number) =>
  waitFor(
    () => stack.deliveries(robotId),
    (d) => d.length >= count,
  );

/** The robot's runs once `count` of them have finished (newest first). */
export const finishedRuns = (stack: Stack, robotId: string, count: number) =>
  waitFor(
    () => stack.runs(robotId),
    (r) => r.filter((run) => run.status !== 'running').length >= count,
  );

/** The robot's one delivery, once it is recorded. */
export const onlyDelivery = async (stack: Stack, robotId: string) =>
  (
    await waitFor(
      () => stack.deliveries(robotId),
      (d) => d.length === 1,
    )
  )[0];
