/**
 * Bytes of webhook bodies held in memory at once, in one receiver: at most MAX_INFLIGHT_BODY_BYTES
 * (default 256 MiB, eight bodies of the largest size). A body is counted from its first byte until
 * its request is answered. A request that would go past it is answered 503 with Retry-After before
 * anything is started, so a burst of large bodies slows senders down instead of exhausting memory;
 * nothing accepted is lost.
 */
import type { IncomingMessage } from 'node:http';

export class BodyBudgetExceeded extends Error {
  readonly status = 503;
  /** An outcome the service chose, not a failure: logged as one line, without a stack. */
  readonly expected = true;
  constructor() {
    super('too many body bytes in flight');
  }
}

export class BodyTooLarge extends Error {
  readonly status = 413;
  constructor() {
    super('body too large');
  }
}

export class BodyBudget {
  private inFlight = 0;

  constructor(private readonly maxBytes: number) {}

  get bytesInFlight(): number {
    return this.inFlight;
  }

  /**
   * Reads a request body of at most `limit` bytes while counting it against the budget, and calls
   * `use` with it; the bytes are given back once `use` has settled (or the read failed).
   */
  async withBody<T>(req: IncomingMessage, limit: number, use: (body: Buffer) => Promise<T>): Promise<T> {
    let held = 0;
    const take = (n: number) => {
      if (this.inFlight + n > this.maxBytes) throw new BodyBudgetExceeded();
      this.inFlight += n;
      held += n;
    };
    try {
      const declared = Number(req.headers['content-length']);
      if (declared > limit) throw new BodyTooLarge();
      if (declared > 0) take(declared); // known up front: refused before a byte is read
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > limit) throw new BodyTooLarge();
        if (size > held) take(size - held);
        chunks.push(chunk);
      }
      return await use(Buffer.concat(chunks, size));
    } finally {
      this.inFlight -= held;
    }
  }
}
