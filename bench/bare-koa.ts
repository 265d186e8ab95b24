/**
 * The HTTP-layer baseline of the benchmark: a Koa app with the webhook route's path that reads
 * the body and answers 200 with an empty body, and nothing else. Started by bench/stack.ts in a
 * process of its own (as the receiver is), on a free loopback port that it prints.
 */
import Router from '@koa/router';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import getRawBody from 'raw-body';
import { runMain, onShutdown } from '../src/entry/main';
import { KEEP_ALIVE_TIMEOUT_MS } from '../src/http';
import { WEBHOOK_PATH } from '../src/domain/ids';

runMain('bare-koa', async () => {
  const router = new Router();
  router.post(WEBHOOK_PATH, async (ctx) => {
    await getRawBody(ctx.req);
    ctx.body = null;
    ctx.status = 200;
  });
  const app = new Koa();
  app.use(router.routes());
  const server = app.listen(0, '127.0.0.1');
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  await new Promise<void>((resolve) => server.once('listening', resolve));
  onShutdown(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  process.stdout.write(`listening on ${(server.address() as AddressInfo).port}\n`);
});
