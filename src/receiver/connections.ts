/**
 * How many connections a receiver holds, and for whom (docs/security.md, Connections). A client
 * that opens connections and leaves them idle must not take the sockets every other sender needs:
 *
 * - at most MAX_CONNECTIONS at once, and at most MAX_CONNECTIONS_PER_ADDRESS from one client
 *   address (a proxy TRUST_PROXY names is exempt from the second: its clients are counted by the
 *   proxy, as the cluster's nginx does with `limit_conn`);
 * - a connection past either cap first makes room by closing idle keep-alive connections (of that
 *   address, for its own cap; of anyone, for the total): one that sent a request and waits for
 *   nothing, or one that never sent a byte. Only when every connection in the way is busy is the
 *   new one closed unanswered (counted in `webhooks_connections_refused_total`);
 * - an idle keep-alive connection is closed after KEEP_ALIVE_TIMEOUT_MS anyway.
 */
import type http from 'node:http';
import type { Socket } from 'node:net';

/**
 * Idle keep-alive connections are closed after this: long enough for a sender's next request in a
 * burst, short enough that idle sockets cannot pile up. A proxy or load balancer in front must close
 * its own idle connections to the receiver sooner (the cluster's nginx: 4 s), or it may send a
 * request on one the receiver has just closed.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 5000;

interface ConnectionCaps {
  /** MAX_CONNECTIONS: of everyone, at once. */
  max: number;
  /** MAX_CONNECTIONS_PER_ADDRESS: of one client address, at once. */
  perAddress: number;
  /** Whether a peer is a trusted proxy, whose connections count only in the total. */
  exempt(address: string): boolean;
  /** A new connection closed unanswered. */
  refused(): void;
}

interface Tracked {
  address: string;
  /** Requests under way on it: 0 is idle. */
  busy: number;
}

/** Holds `server` to the caps (see the module's doc). */
export function capConnections(server: http.Server, caps: ConnectionCaps): void {
  const open = new Map<Socket, Tracked>();
  const byAddress = new Map<string, Set<Socket>>();

  const closeIdle = (among: Iterable<Socket>, wanted: number): number => {
    let closed = 0;
    for (const socket of among) {
      if (closed >= wanted) break;
      if (open.get(socket)?.busy === 0) {
        socket.destroy();
        closed++;
      }
    }
    return closed;
  };

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const own = byAddress.get(address) ?? new Set<Socket>();
    const counted = !caps.exempt(address);
    const roomForAddress = !counted || own.size < caps.perAddress || closeIdle([...own], 1) > 0;
    const roomInAll = roomForAddress && (open.size < caps.max || closeIdle(open.keys(), 1) > 0);
    if (!roomInAll) {
      caps.refused();
      socket.destroy();
      return;
    }
    open.set(socket, { address, busy: 0 });
    own.add(socket);
    byAddress.set(address, own);
    socket.once('close', () => {
      open.delete(socket);
      own.delete(socket);
      if (own.size === 0 && byAddress.get(address) === own) byAddress.delete(address);
    });
  });

  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const tracked = open.get(req.socket);
    if (!tracked) return;
    tracked.busy++;
    res.once('close', () => tracked.busy--);
  });
}
