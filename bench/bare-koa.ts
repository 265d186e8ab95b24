/**
 * The HTTP-layer baseline of the benchmark: a Koa app with the webhook route's path that reads
 * the body and answers 200 with an empty body, and nothing else. Started by bench/stack.ts in a
 * process of its own (as the receiver is), on a free loopback port that it prints.
 */
import getRawBody from 'raw-body';
import { runMain } from '../src/entry/main';
import { serveBaseline } from './baseline-server';

runMain('bare-koa', () =>
  serveBaseline(async (ctx) => {
    await getRawBody(ctx.req);
    ctx.body = null;
    ctx.status = 200;
  }),
);
