/**
 * The receiver's connection caps (src/receiver/connections.ts), on a real HTTP server and real
 * sockets from several loopback addresses: idle connections make room, busy ones are never cut,
 * and one address cannot take what others need.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { capConnections } from '../../src/receiver/connections';
import { waitFor } from '../../src/launch/os/wait';

let server: http.Server;
let port: number;
let refused = 0;
/** Requests the server holds unanswered (a busy connection), released by the test. */
const held: http.ServerResponse[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/hold') held.push(res);
    else res.end('ok');
  });
  capConnections(server, { max: 6, perAddress: 3, exempt: (a) => a.endsWith('127.0.0.9'), refused: () => refused++ });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterEach(() => {
  for (const res of held.splice(0)) res.end();
  server.closeAllConnections();
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** A connection from `from`; `path` sends a request on it (kept alive), else it sends nothing. */
function connect(from: string, path?: string) {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
  let answer = '';
  socket.on('data', (d: Buffer) => (answer += d.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const ready = new Promise<void>((resolve) => socket.on('connect', () => resolve()));
  if (path) void ready.then(() => socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`));
  return { socket, ready, closed, answered: () => answer.includes('\r\n\r\n') };
}

const heldCount = (n: number) =>
  waitFor(
    () => Promise.resolve(held.length),
    (h) => h >= n,
  );

it('closes an idle connection of the same address to make room, never a busy one', async () => {
  const busy = [connect('127.0.0.2', '/hold'), connect('127.0.0.2', '/hold')];
  await heldCount(2);
  const idle = connect('127.0.0.2', '/');
  await waitFor(
    () => Promise.resolve(idle.answered()),
    (a) => a,
  );
  const fourth = connect('127.0.0.2', '/');
  await idle.closed; // the idle keep-alive connection made room
  await waitFor(
    () => Promise.resolve(fourth.answered()),
    (a) => a,
  );
  expect(busy.every((c) => !c.socket.destroyed)).toBe(true);
  expect(refused).toBe(0);
});

it('refuses a connection when all of its address are busy, and takes another address', async () => {
  const before = refused;
  for (let i = 0; i < 3; i++) connect('127.0.0.3', '/hold');
  await heldCount(3);
  const fourth = connect('127.0.0.3', '/');
  await fourth.closed;
  expect(fourth.answered()).toBe(false);
  expect(refused).toBe(before + 1);
  const other = connect('127.0.0.4', '/');
  await waitFor(
    () => Promise.resolve(other.answered()),
    (a) => a,
  );
});

it('holds a trusted proxy to the total only, and makes room in the total from idle connections', async () => {
  const proxy = Array.from({ length: 5 }, () => connect('127.0.0.9', '/hold'));
  await heldCount(5);
  const idle = connect('127.0.0.5'); // never sends a byte
  await idle.ready;
  // The total (6) is reached: the idle one makes room for a proxy's sixth request.
  const sixth = connect('127.0.0.9', '/hold');
  await idle.closed;
  await heldCount(6);
  expect([...proxy, sixth].every((c) => !c.socket.destroyed)).toBe(true);
});
