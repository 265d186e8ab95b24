/**
 * Body bytes in flight are capped (MAX_INFLIGHT_BODY_BYTES, src/receiver/body-budget.ts): past the
 * cap a request is refused (the receiver answers 503 with Retry-After), and bytes come back once a
 * request is done. A real HTTP server and real requests, one held half sent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BodyBudget, BodyBudgetExceeded, BodyTooLarge } from '../src/receiver/body-budget';
import { waitFor } from './support/wait';

const budget = new BodyBudget(64 * 1024);
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    budget
      .withBody(req, 64 * 1024, (body) => new Promise<void>((done) => res.end(String(body.length), done)))
      .catch((err: { status?: number }) => {
        res.statusCode = err.status ?? 500;
        res.end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

it('refuses a body past the cap, and takes it once the bytes are given back', async () => {
  const held = http.request(url, { method: 'POST', headers: { 'content-length': String(48 * 1024) } });
  const heldAnswer = new Promise<number>((resolve) =>
    held.on('response', (res) => (res.resume(), resolve(res.statusCode!))),
  );
  held.write(Buffer.alloc(24 * 1024));
  await waitFor(
    () => budget.bytesInFlight,
    (n) => n === 48 * 1024,
  );
  const refused = await fetch(url, { method: 'POST', body: Buffer.alloc(32 * 1024) });
  expect(refused.status).toBe(new BodyBudgetExceeded().status);
  held.end(Buffer.alloc(24 * 1024));
  expect(await heldAnswer).toBe(200);
  expect(budget.bytesInFlight).toBe(0);
  expect(await (await fetch(url, { method: 'POST', body: Buffer.alloc(32 * 1024) })).text()).toBe(String(32 * 1024));
});

it('refuses a declared length over the limit before reading it', async () => {
  const res = await fetch(url, { method: 'POST', body: Buffer.alloc(64 * 1024 + 1) });
  expect(res.status).toBe(new BodyTooLarge().status);
  expect(budget.bytesInFlight).toBe(0);
});
