/**
 * How a baseline of the benchmark serves (bench/bare-koa.ts, bench/bare-receiver.ts): one Koa
 * route on the webhook path, on a free loopback port that it prints for bench/stack.ts, with the
 * receiver's keep-alive, closed on shutdown (then `close`, if given).
 */
import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_PATH } from '../src/domain/ids';
import { onShutdown } from '../src/entry/main';
import { KEEP_ALIVE_TIMEOUT_MS } from '../src/receiver/connections';

export async function serveBaseline(route: Middleware, close?: () => Promise<void>): Promise<void> {
  const router = new Router();
  router.post(WEBHOOK_PATH, route);
  const app = new Koa();
  app.use(router.routes());
  const server = app.listen(0, '127.0.0.1');
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  await new Promise<void>((resolve) => server.once('listening', resolve));
  onShutdown(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await close?.();
  });
  process.stdout.write(`listening on ${(server.address() as AddressInfo).port}\n`);
}
