/**
 * Work a process runs in the background of a request (a release of held deliveries): when the
 * process stops, it is told to stop (its signal aborts) and awaited, so nothing of it is still
 * calling Temporal or the database once their connections close.
 */
export class BackgroundWork {
  private readonly controller = new AbortController();
  private readonly running = new Set<Promise<void>>();

  /** Aborts once the process is stopping. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Runs `work`; it handles its own failures (a rejection is only dropped here). */
  run(work: (signal: AbortSignal) => Promise<void>): void {
    const done: Promise<void> = work(this.signal)
      .catch(() => undefined)
      .finally(() => this.running.delete(done));
    this.running.add(done);
  }

  /** Tells every piece of work to stop, and waits until each has. */
  async stop(): Promise<void> {
    this.controller.abort();
    await Promise.all([...this.running]);
  }
}
