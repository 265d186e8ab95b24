/**
 * The ack path's floor, a baseline of the benchmark: a Koa app with the webhook route's path that
 * reads the body and starts a workflow carrying it, exactly as a delivery's start does (sealed
 * payloads, memo, search attributes, summary: bench/load.ts's `delivery` shape), and answers 200
 * once Temporal has taken it. Nothing else of the receiver: no token, no body budget, no dedup key,
 * no trigger rules' headers, no metrics or logs. So the receiver's acks ÷ this floor is what the
 * receiver's own work costs, apart from what the design (Koa, then a durable start) costs.
 *
 * Started by bench/stack.ts in a process of its own (as the receiver is), against the Temporal of
 * TEMPORAL_ADDRESS; its workflows wait on a task queue that nobody polls. It prints its port.
 */
import { Client } from '@temporalio/client';
import { randomBytes, randomUUID } from 'node:crypto';
import getRawBody from 'raw-body';
import { runMain } from '../src/entry/main';
import { PayloadEncryption } from '../src/temporal/payload-codec';
import { receiverConnection } from '../src/temporal/connection';
import { serveBaseline } from './baseline-server';
import { startOptions } from './load';

runMain('bare-receiver', async () => {
  const namespace = process.env.TEMPORAL_NAMESPACE || 'default';
  // The receiver's connection (no AsyncLocalStorage), without its deadlines.
  const connection = receiverConnection({ address: process.env.TEMPORAL_ADDRESS, namespace, deadlines: {} });
  // Sealed as the receiver seals (a key of its own: nobody reads these workflows).
  const dataConverter = { payloadCodecs: [new PayloadEncryption([randomBytes(32)])] };
  const temporal = new Client({ connection, namespace, dataConverter });
  await serveBaseline(
    async (ctx) => {
      const body = await getRawBody(ctx.req);
      const options = startOptions('delivery', 'bench-nobody-polls', `bench-floor-${randomUUID()}`);
      await temporal.workflow.start('benchNoop', { ...options, args: [{ body: body.toString('utf8') }] });
      ctx.body = null;
      ctx.status = 200;
    },
    () => connection.close(),
  );
});
