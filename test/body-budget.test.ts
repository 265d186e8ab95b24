/**
 * Body bytes in flight (src/receiver/body-budget.ts): counted as they arrive, never by the length a
 * request announces; capped per receiver and per trigger's URL; given back when a body goes idle.
 * A real HTTP server and real requests, some held half sent. The URL's path names the trigger.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BodyBudget, BodyBudgetExceeded, BodyIdle, BodyTooLarge } from '../src/receiver/body-budget';
import { waitFor } from '../src/launch/os/wait';

const KiB = 1024;
const IDLE_MS = 5000;
const budget = new BodyBudget({ total: 64 * KiB, perTrigger: 40 * KiB, idleMs: IDLE_MS });
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    budget
      .withBody(req, req.url!, 64 * KiB, (body) => new Promise<void>((done) => res.end(String(body.length), done)))
      .catch((err: { status?: number; headers?: Record<string, string> }) => {
        res.writeHead(err.status ?? 500, err.headers ?? {}).end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** A request that announces `declared` bytes and sends `sent` of them (fewer: it is still open), then waits. */
function hold(trigger: string, declared: number, sent: number) {
  const req = http.request(`${base}/${trigger}`, { method: 'POST', headers: { 'content-length': String(declared) } });
  const answer = new Promise<{ status: number; closed: boolean }>((resolve) =>
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, closed: res.headers.connection === 'close' }));
    }),
  );
  req.on('error', () => undefined);
  req.write(Buffer.alloc(sent));
  return { req, answer };
}

const post = async (trigger: string, bytes: number) =>
  (await fetch(`${base}/${trigger}`, { method: 'POST', body: Buffer.alloc(bytes) })).status;

it('counts what has arrived, never what was announced: a sender announcing much and sending little holds little', async () => {
  const held = hold('a', 36 * KiB, 8 * KiB);
  await waitFor(
    () => budget.bytesInFlight,
    (n) => n === 8 * KiB,
  );
  // Old rule (reserve the announced 36 KiB): this 32 KiB body would not fit.
  expect(await post('b', 32 * KiB)).toBe(200);
  held.req.end(Buffer.alloc(28 * KiB));
  expect((await held.answer).status).toBe(200);
  expect(budget.bytesInFlight).toBe(0);
});

it('refuses a body past the receiver’s cap, and takes it once the bytes are given back', async () => {
  const held = hold('a', 34 * KiB, 30 * KiB);
  const other = hold('c', 31 * KiB, 30 * KiB);
  await waitFor(
    () => budget.bytesInFlight,
    (n) => n === 60 * KiB,
  );
  expect(await post('b', 8 * KiB)).toBe(new BodyBudgetExceeded('receiver').status);
  held.req.end(Buffer.alloc(4 * KiB)); // 64 KiB in flight: exactly the cap
  expect((await held.answer).status).toBe(200);
  other.req.end(Buffer.alloc(1 * KiB));
  expect((await other.answer).status).toBe(200);
  expect(budget.bytesInFlight).toBe(0);
  expect(await post('b', 8 * KiB)).toBe(200);
});

it("refuses one URL past its share while another URL's bodies are still taken", async () => {
  const first = hold('greedy', 31 * KiB, 30 * KiB);
  await waitFor(
    () => budget.bytesOf('/greedy'),
    (n) => n === 30 * KiB,
  );
  expect(await post('greedy', 16 * KiB)).toBe(new BodyBudgetExceeded('trigger').status);
  expect(await post('modest', 16 * KiB)).toBe(200);
  first.req.end(Buffer.alloc(1 * KiB));
  expect((await first.answer).status).toBe(200);
  expect(budget.bytesOf('/greedy')).toBe(0);
});

it('answers 408 to a body that stops arriving, closes its connection and gives its bytes back', async () => {
  const stalled = hold('slow', 32 * KiB, 16 * KiB);
  const answer = await stalled.answer;
  expect(answer).toEqual({ status: new BodyIdle(IDLE_MS).status, closed: true });
  expect(budget.bytesInFlight).toBe(0);
});

it('refuses a declared length over the limit before reading it', async () => {
  expect(await post('a', 64 * KiB + 1)).toBe(new BodyTooLarge().status);
  expect(budget.bytesInFlight).toBe(0);
});
