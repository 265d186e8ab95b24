/**
 * The service's models on a connection through a proxy (TCP toward the driver, TCP or the unix
 * socket toward the database) that cuts the connection carrying one
 * chosen command before the database sees it: a connection lost in the middle of a write, as when
 * the database is killed, without stopping the database every other test uses. Or it stalls that
 * connection: it stops reading it, so a large command is never fully written and never answered,
 * as when the database dies in the middle of reading it.
 */
import net from 'node:net';
import { connectDatabase } from '../../src/storage/connect';
import type { Models } from '../../src/storage/models';

export interface CutConnection {
  /** The models, every call through the proxy. */
  models: Models;
  /**
   * Cuts the connection that carries the next `command` on `collection` (e.g. an `insert` into
   * `history_slots`) after `skip` of them went through, before forwarding it; resolves once it
   * is cut, and fails if that has not happened within CUT_WITHIN_MS.
   */
  cutNext(command: string, collection: string, opts?: { skip?: number }): Promise<void>;
  /** As cutNext, but the connection is left open and never read from again (nor its command forwarded). */
  stallNext(command: string, collection: string): Promise<void>;
  /** Closes the connection, then the proxy. */
  close(): Promise<void>;
}

/** How long a cut waits for its command: a test whose command never comes fails with a reason, not a timeout. */
const CUT_WITHIN_MS = 30_000;

/** A command's first bytes in BSON: its name as a string element whose value is the collection. */
function commandBytes(command: string, collection: string): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32LE(Buffer.byteLength(collection) + 1);
  return Buffer.concat([Buffer.from([0x02]), Buffer.from(`${command}\0`), length, Buffer.from(`${collection}\0`)]);
}

/** Where a single-host MongoDB URI's server is (a TCP host and port, or a unix socket), and the rest of it. */
function serverOf(uri: string): { target: net.NetConnectOpts; rest: string } {
  const tcp = /^mongodb:\/\/([^/:?%]+):(\d+)(.*)$/.exec(uri);
  if (tcp) return { target: { host: tcp[1], port: Number(tcp[2]) }, rest: tcp[3] };
  // The embedded FerretDB's socket, percent-encoded (src/launch/servers/dev-servers.ts, ferretDbUri).
  const socket = /^mongodb:\/\/(%2F[^/?]+)(.*)$/i.exec(uri);
  if (socket) return { target: { path: decodeURIComponent(socket[1]) }, rest: socket[2] };
  throw new Error(`not a single-host MongoDB URI: ${uri}`);
}

/** Connects to the database `uri` names through a proxy of its own. */
export async function connectThroughCutProxy(uri: string): Promise<CutConnection> {
  const { target, rest } = serverOf(uri);
  let cut: { bytes: Buffer; skip: number; stall: boolean; done: () => void } | null = null;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.on('data', (chunk) => {
      if (cut && chunk.includes(cut.bytes) && cut.skip-- === 0) {
        const { done, stall } = cut;
        cut = null;
        if (stall) client.pause();
        else {
          client.resetAndDestroy();
          upstream.destroy();
        }
        return done();
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: proxyPort } = server.address() as net.AddressInfo;
  // One server, through the proxy, and no write retried by the driver: the cut write must fail.
  const options = `directConnection=true&retryWrites=false`;
  const { db, models } = await connectDatabase(
    `mongodb://127.0.0.1:${proxyPort}${rest}${rest.includes('?') ? '&' : '?'}${options}`,
  );
  const next = (command: string, collection: string, skip: number, stall: boolean) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        cut = null;
        reject(new Error(`no ${command} on ${collection} came through the proxy within ${CUT_WITHIN_MS} ms`));
      }, CUT_WITHIN_MS);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      cut = { bytes: commandBytes(command, collection), skip, stall, done };
    });
  return {
    models,
    cutNext: (command, collection, { skip = 0 } = {}) => next(command, collection, skip, false),
    stallNext: (command, collection) => next(command, collection, 0, true),
    close: async () => {
      await db.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
