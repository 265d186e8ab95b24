/**
 * Bytes of webhook bodies held in memory at once, in one receiver: at most MAX_INFLIGHT_BODY_BYTES
 * (default 256 MiB, eight bodies of the largest size), and at most
 * MAX_INFLIGHT_BODY_BYTES_PER_TRIGGER of them for one trigger's URL (default 64 MiB), so that the
 * senders of one URL can never take the budget every other robot needs.
 *
 * - A body is counted as its bytes arrive, from the first until its request is answered; the length a
 *   request announces is never reserved (a sender announcing 32 MiB and sending nothing holds nothing),
 *   but one that could not fit in what is free at that moment is refused before a byte is read.
 * - A body that goes BODY_IDLE_TIMEOUT_MS without a byte arriving is answered 408 and its bytes given back.
 * - Past either cap a request is answered 503 with Retry-After before anything is started: a burst
 *   of large bodies slows senders down instead of exhausting memory, and nothing accepted is lost.
 * Refused mid-body, the connection is closed after the answer, so its sender cannot keep it.
 */
import type { IncomingMessage } from 'node:http';

/** A refusal while the body may still be arriving: the answer closes the connection. */
const CLOSE = { Connection: 'close' } as const;

export class BodyBudgetExceeded extends Error {
  readonly status = 503;
  /** An outcome the service chose, not a failure: logged as one line, without a stack. */
  readonly expected = true;
  readonly headers = CLOSE;
  constructor(readonly share: 'receiver' | 'trigger') {
    super(share === 'trigger' ? "too many of this URL's body bytes in flight" : 'too many body bytes in flight');
  }
}

export class BodyTooLarge extends Error {
  readonly status = 413;
  readonly expected = true;
  readonly headers = CLOSE;
  constructor() {
    super('body too large');
  }
}

export class BodyIdle extends Error {
  readonly status = 408;
  readonly expected = true;
  readonly headers = CLOSE;
  constructor(ms: number) {
    super(`no body bytes for ${ms} ms`);
  }
}

/**
 * The sender closed its connection before its body ended: its own doing, one info line, no stack.
 * Nobody reads the answer (400, as nginx logs such a request with its 499).
 */
class BodyAborted extends Error {
  readonly status = 400;
  readonly expected = true;
  constructor() {
    super('the sender closed the connection before its body ended');
  }
}

interface BodyBudgetLimits {
  /** MAX_INFLIGHT_BODY_BYTES */
  total: number;
  /** MAX_INFLIGHT_BODY_BYTES_PER_TRIGGER */
  perTrigger: number;
  /** BODY_IDLE_TIMEOUT_MS */
  idleMs: number;
}

export class BodyBudget {
  private inFlight = 0;
  private readonly byTrigger = new Map<string, number>();

  constructor(private readonly limits: BodyBudgetLimits) {}

  get bytesInFlight(): number {
    return this.inFlight;
  }

  /** Bytes in flight for one trigger's URL. */
  bytesOf(trigger: string): number {
    return this.byTrigger.get(trigger) ?? 0;
  }

  /**
   * Reads a request body of at most `limit` bytes for `trigger` while counting it against the budget,
   * and calls `use` with it; the bytes are given back once `use` has settled (or the read failed).
   */
  async withBody<T>(
    req: IncomingMessage,
    trigger: string,
    limit: number,
    use: (body: Buffer) => Promise<T>,
  ): Promise<T> {
    let held = 0;
    const take = (n: number) => {
      if (this.inFlight + n > this.limits.total) throw new BodyBudgetExceeded('receiver');
      if (this.bytesOf(trigger) + n > this.limits.perTrigger) throw new BodyBudgetExceeded('trigger');
      this.inFlight += n;
      this.byTrigger.set(trigger, this.bytesOf(trigger) + n);
      held += n;
    };
    try {
      const declared = Number(req.headers['content-length']);
      if (declared > limit) throw new BodyTooLarge();
      // Refused up front when it could not fit now; nothing is reserved for it.
      if (declared > 0) {
        take(declared);
        this.giveBack(trigger, held);
        held = 0;
      }
      const body = await this.read(req, limit, take);
      return await use(body);
    } finally {
      this.giveBack(trigger, held);
    }
  }

  private giveBack(trigger: string, n: number): void {
    if (n === 0) return;
    this.inFlight -= n;
    const left = this.bytesOf(trigger) - n;
    if (left > 0) this.byTrigger.set(trigger, left);
    else this.byTrigger.delete(trigger);
  }

  /** The whole body, taking each chunk from the budget as it arrives; fails once no byte came for idleMs. */
  private read(req: IncomingMessage, limit: number, take: (n: number) => void): Promise<Buffer> {
    const { idleMs } = this.limits;
    return new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let timer = setTimeout(() => fail(new BodyIdle(idleMs)), idleMs);
      const stop = () => {
        clearTimeout(timer);
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', fail);
        req.off('aborted', onAborted);
      };
      function fail(err: Error) {
        stop();
        req.pause();
        reject(err);
      }
      function onData(chunk: Buffer) {
        clearTimeout(timer);
        timer = setTimeout(() => fail(new BodyIdle(idleMs)), idleMs);
        size += chunk.length;
        try {
          if (size > limit) throw new BodyTooLarge();
          take(chunk.length);
        } catch (err) {
          fail(err as Error);
          return;
        }
        chunks.push(chunk);
      }
      function onEnd() {
        stop();
        resolve(Buffer.concat(chunks, size));
      }
      const onAborted = () => fail(new BodyAborted());
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', fail);
      req.on('aborted', onAborted);
    });
  }
}
