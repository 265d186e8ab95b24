/**
 * The least an HTTP receiver can do, a baseline of the benchmark: Node's own HTTP server (no Koa,
 * no router) that reads the body, makes a bare start exactly as the bench's bare starts do (the
 * same shape, the same connection, no codec), and answers 200 once Temporal has taken it. So its
 * acks ÷ the bare starts are what one HTTP hop through a second process costs on this machine,
 * before anything a receiver (or Koa, or a delivery's start) adds; the floor (bare-receiver.ts)
 * adds Koa and a delivery's start to it.
 *
 * Started by bench/stack.ts in a process of its own, against the Temporal of TEMPORAL_ADDRESS; its
 * workflows wait on a task queue that nobody polls. It prints its port.
 */
import { Client } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import getRawBody from 'raw-body';
import { onShutdown, runMain } from '../src/entry/main';
import { KEEP_ALIVE_TIMEOUT_MS } from '../src/receiver/connections';
import { receiverConnection } from '../src/temporal/connection';
import { startOptions } from './load';

runMain('bare-http-start', async () => {
  const namespace = process.env.TEMPORAL_NAMESPACE || 'default';
  const connection = receiverConnection({ address: process.env.TEMPORAL_ADDRESS, namespace, deadlines: {} });
  const temporal = new Client({ connection, namespace });
  const server = createServer((req, res) => {
    const start = async () => {
      await getRawBody(req);
      await temporal.workflow.start(
        'benchNoop',
        startOptions('bare', 'bench-nobody-polls', `bench-http-${randomUUID()}`),
      );
    };
    start().then(
      () => res.writeHead(200).end(),
      () => res.writeHead(503).end(),
    );
  });
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  onShutdown(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await connection.close();
  });
  process.stdout.write(`listening on ${(server.address() as AddressInfo).port}\n`);
});
