/**
 * The worker gives way on the CPU. A sender waits for its delivery's ack, which waits on Temporal;
 * nobody waits on a run (the spec: answered at once, the work happens in the background). Where
 * the worker shares a machine with the receiver and Temporal (the embedded stack, a small box),
 * every thread of the worker runs at the niceness WORKER_NICE (10 by default; 0 leaves it as
 * started), so runs take the CPU that acks leave, and catch up after a burst.
 *
 * Linux keeps a niceness per thread, so each thread the process has is lowered, once the worker
 * has started them (the SDK's and the workflow threads); a thread started later inherits its
 * starter's. A thread is only ever made nicer, never less nice: that needs no privilege, and a
 * worker started with `nice -n 15` stays at 15. Containers are weighed by their CPU shares instead
 * (docker-compose.yml gives the worker a lower weight).
 */
import fs from 'node:fs';
import os from 'node:os';
import type { Logger } from '../../core/log';

/** The threads of this process (Linux); elsewhere, the process itself (0). */
function ownThreads(): number[] {
  try {
    return fs.readdirSync('/proc/self/task').map(Number);
  } catch {
    return [0];
  }
}

/** Makes every thread of this process at least `nice` nice; returns how many were lowered. */
export function giveWayOnCpu(nice: number, log: Logger): number {
  if (nice <= 0) return 0;
  let lowered = 0;
  for (const thread of ownThreads()) {
    try {
      if (os.getPriority(thread) >= nice) continue;
      os.setPriority(thread, nice);
      lowered++;
    } catch (err) {
      // A thread that ended meanwhile, or a system that refuses: the worker runs as it is.
      log.debug('could not lower a thread of the worker', { thread, err });
    }
  }
  return lowered;
}
