/**
 * The lane a worker prepares stored bodies in (src/domain/limits/preparation.ts says why):
 *
 * - At most PREPARING_BODY_BYTES of stored bodies and LARGE_BODY_PREPARATIONS of them are prepared
 *   at once in one worker. A preparation past either waits its turn, in arrival order, with its
 *   activity heartbeating, so waiting is neither a failure nor an attempt. A body larger than the
 *   whole budget is prepared alone.
 * - An attempt is counted in the store (`preparation_attempts`, by delivery) while its body is read
 *   and parsed and its runs stored; an attempt that ends, well or with an error, takes its count
 *   back. So the count left when an attempt starts is of the attempts whose worker stopped under
 *   them (killed, out of memory): past PREPARATION_ATTEMPTS the delivery is failed naming the
 *   setting instead of being tried again, and again.
 *
 * A body that travelled inline (INLINE_BODY_BYTES) is prepared at once, uncounted: the ordinary
 * delivery's path costs one comparison here.
 */
import type { mongo } from 'mongoose';
import type { PreparationLimits } from '../domain/limits';
import type { DeliveryInput } from '../domain/types';
import type { Models } from '../storage/models';
import type { Progress } from './progress';

/** How often a preparation waiting its turn heartbeats (the activity's heartbeat timeout is 30 s). */
const WAITING_BEAT_MS = 5_000;

/** `preparation_attempts`: the attempts at preparing one delivery under way or stopped with their worker. */
export interface PreparationAttemptDoc {
  _id: string;
  begun: number;
}

/** The collection of the attempts under way, read and written by `_id` only (src/storage/by-id.ts says why). */
export function preparationAttempts(models: Models): mongo.Collection<PreparationAttemptDoc> {
  return models.Delivery.db.collection('preparation_attempts') as unknown as mongo.Collection<PreparationAttemptDoc>;
}

/** The delivery's preparation was under way when its worker stopped PREPARATION_ATTEMPTS times. */
export class PreparationGaveUp extends Error {
  override name = 'PreparationGaveUp';
  constructor(stopped: number) {
    super(
      `over PREPARATION_ATTEMPTS: its worker stopped ${stopped} times while preparing it ` +
        '(out of memory or killed), so it is not tried again',
    );
  }
}

interface Waiting {
  bytes: number;
  go: () => void;
}

export class PreparationLane {
  private bytes = 0;
  private running = 0;
  private readonly queue: Waiting[] = [];

  constructor(
    private readonly limits: PreparationLimits,
    private readonly attempts: mongo.Collection<PreparationAttemptDoc>,
  ) {}

  /** Bytes of stored bodies being prepared now, and preparations waiting for their turn. */
  get state(): { bytes: number; running: number; waiting: number } {
    return { bytes: this.bytes, running: this.running, waiting: this.queue.length };
  }

  /**
   * Runs `work` (reading, parsing and storing the delivery) in its turn, a stored body's attempt
   * counted. An attempt cancelled while it waits (`signal`: its activity timed out or its workflow
   * ended) leaves the queue with the signal's reason.
   */
  async prepare<T>(input: DeliveryInput, progress: Progress, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (input.body.kind === 'inline') return work();
    const bytes = Math.min(input.size, this.limits.bodyBytes);
    await this.turn(bytes, progress, signal);
    try {
      return await this.counted(input.deliveryId, work);
    } finally {
      this.bytes -= bytes;
      this.running--;
      this.next();
    }
  }

  /** The lane as one attempt uses it: its wait ends with `signal` (the activity's cancellation). */
  cancelledWith(signal: AbortSignal): Pick<PreparationLane, 'prepare'> {
    return { prepare: (input, progress, work) => this.prepare(input, progress, work, signal) };
  }

  private async counted<T>(deliveryId: string, work: () => Promise<T>): Promise<T> {
    const counted = await this.attempts.findOneAndUpdate(
      { _id: deliveryId },
      { $inc: { begun: 1 } },
      { upsert: true, returnDocument: 'after' },
    );
    const stopped = (counted?.begun ?? 1) - 1;
    if (stopped >= this.limits.attempts) {
      await this.attempts.deleteOne({ _id: deliveryId });
      throw new PreparationGaveUp(stopped);
    }
    let result: T;
    try {
      result = await work();
    } catch (err) {
      // Ended with an error (retried as before): this attempt's count is taken back.
      await this.attempts.updateOne({ _id: deliveryId }, { $inc: { begun: -1 } }).catch(() => undefined);
      throw err;
    }
    // Left behind only if the store fails just now: a stray count of one.
    await this.attempts.deleteOne({ _id: deliveryId }).catch(() => undefined);
    return result;
  }

  private fits(bytes: number): boolean {
    if (this.running >= this.limits.largeBodies) return false;
    return this.running === 0 || this.bytes + bytes <= this.limits.bodyBytes;
  }

  private async turn(bytes: number, progress: Progress, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.queue.length === 0 && this.fits(bytes)) {
      this.take(bytes);
      return;
    }
    const beat = setInterval(() => progress.beat(progress.resumed), WAITING_BEAT_MS);
    let leave = () => {};
    try {
      await new Promise<void>((go, fail) => {
        const waiting = { bytes, go };
        this.queue.push(waiting);
        leave = () => {
          const at = this.queue.indexOf(waiting);
          if (at < 0) return; // its turn came first: it goes on
          this.queue.splice(at, 1);
          fail(signal?.reason instanceof Error ? signal.reason : new Error('cancelled while waiting its turn'));
        };
        signal?.addEventListener('abort', leave, { once: true });
      });
    } finally {
      clearInterval(beat);
      signal?.removeEventListener('abort', leave);
    }
  }

  private take(bytes: number): void {
    this.bytes += bytes;
    this.running++;
  }

  /** Lets the waiting go, in arrival order, while the first of them fits. */
  private next(): void {
    while (this.queue.length > 0 && this.fits(this.queue[0].bytes)) {
      const first = this.queue.shift()!;
      this.take(first.bytes);
      first.go();
    }
  }
}
