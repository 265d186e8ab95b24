/**
 * A receiver told to stop (SIGTERM: a deploy, a scale-down) first answers the requests it has: it
 * stops taking connections, closes the idle ones, answers each request under way (with
 * `Connection: close` where its answer has not begun; a connection whose answer had begun is closed
 * once that answer is sent), and closes the rest once none is left or CLOSE_DRAIN_MS has passed.
 * So a sender whose delivery was being started gets its 200 (or its error), not a reset.
 */
import type http from 'node:http';

/**
 * How long a stopping receiver waits for the requests it is answering. A delivery's ack takes
 * milliseconds (its start is bounded by TEMPORAL_START_TIMEOUT_MS); a request still unanswered
 * after this is one whose sender is still sending, or a start Temporal is not answering, and its
 * connection is closed: the sender retries elsewhere, and the delivery's dedup key makes a start
 * that did happen one run. Well under the 10 s the embedded launcher, Docker and Kubernetes give a
 * process between SIGTERM and SIGKILL.
 */
const CLOSE_DRAIN_MS = 5000;

/** Keeps `server`'s requests under way; the returned close answers them first (see the module's doc). */
export function drainOnClose(server: http.Server, drainMs = CLOSE_DRAIN_MS): () => Promise<void> {
  const answering = new Set<http.ServerResponse>();
  let closing = false;
  let drained: () => void = () => undefined;
  server.on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    answering.add(res);
    if (closing) res.shouldKeepAlive = false;
    res.once('close', () => {
      answering.delete(res);
      if (!closing) return;
      server.closeIdleConnections();
      if (answering.size === 0) drained();
    });
  });
  return async () => {
    closing = true;
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeIdleConnections();
    // Those whose answer has not begun end with `Connection: close`; the others are closed once idle.
    for (const res of answering) if (!res.headersSent) res.shouldKeepAlive = false;
    if (answering.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        drained = resolve;
        timer = setTimeout(resolve, drainMs);
      });
      clearTimeout(timer);
    }
    server.closeAllConnections();
    await closed;
  };
}
