/**
 * What every phase works with: the bench's own clients of a stack (its database, Temporal, the
 * management API), a robot at work on it, and completions counted in Temporal's visibility store.
 */
import { Client } from '@temporalio/client';
import mongoose from 'mongoose';
import { createModels, type Models } from '../src/storage/models';
import { apiClient, robotAtWork, type ApiClient } from '../src/client/api-client';
import { receiverConnection } from '../src/temporal/connection';
import type { Settings } from './settings';
import { launchStack, type BenchStack } from './stack';

export interface BenchContext {
  api: ApiClient;
  models: Models;
  stack: BenchStack;
  temporal: Client;
  s: Settings;
}

export type BenchClients = BenchContext & { close(): Promise<void> };

/** `fn` the first time; the same promise every later time. */
function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

/** The bench's own clients of a stack (its database, Temporal, the API); `close` ends them. */
export async function clientsOf(stack: BenchStack, s: Settings): Promise<BenchClients> {
  const db = mongoose.createConnection(stack.mongodbUri, {
    autoIndex: false,
    autoCreate: false,
    serverSelectionTimeoutMS: 10_000,
  });
  await db.asPromise();
  // The receiver's connection, without its deadlines: with the SDK's own, the bench process (the
  // load of every phase, and the bare starts) would pay promise hooks the receiver does not
  // (src/temporal/connection.ts).
  const connection = receiverConnection({
    address: stack.temporalAddress,
    tls: stack.temporalTls(),
    namespace: stack.namespace,
    deadlines: {},
  });
  return {
    api: apiClient(stack.origin, stack.adminToken, { fetch: stack.fetch }),
    models: createModels(db),
    stack,
    temporal: new Client({ connection, namespace: stack.namespace }),
    s,
    close: once(async () => {
      await connection.close();
      await db.close();
    }),
  };
}

/**
 * A robot at work on a new custom app (named as the robot) with one compose step; its id and
 * webhook URL at the stack's origin (127.0.0.1 and its port).
 */
export async function benchRobot(
  api: ApiClient,
  origin: string,
  name: string,
  bodyFormat: 'json' | 'csv',
  template: Record<string, string>,
): Promise<{ robotId: string; url: string }> {
  const { robotId, webhookUrl } = await robotAtWork(api, {
    template,
    bodyFormat,
    appName: name,
    robotName: name,
    stepName: 's',
  });
  return { robotId, url: `${origin}${new URL(webhookUrl).pathname}` };
}

/**
 * Counts workflows of one type that completed since `start()`, in Temporal's visibility store.
 * Progress is polled there rather than in the database: a FerretDB count scans the whole
 * collection (seconds at 100,000 runs), and doing that every second would take a core away from
 * what is being measured. A run's outcome is stored before its workflow completes.
 */
export function completions(
  temporal: Client,
  type: 'deliveryWorkflow' | 'runWorkflow' | 'benchChild' | 'benchDelivery',
) {
  const query = `WorkflowType = '${type}' AND ExecutionStatus = 'Completed'`;
  const count = async () => (await temporal.workflow.count(query)).count;
  let before = 0;
  return {
    async start() {
      before = await count();
    },
    async sinceStart() {
      return (await count()) - before;
    },
  };
}
export type Completions = ReturnType<typeof completions>;

/** A stack of the bench's own, up, with its clients; `stop` closes them, ends the stack and leaves `cleanups`. */
export interface StackOfItsOwn {
  stack: BenchStack;
  clients: BenchClients;
  stop: () => Promise<void>;
}

/**
 * A stack of its own (`env` set, another build's `launcher`) beside whatever else runs, for the
 * phases that compare stacks or need one untouched by the others; it is in `cleanups` until stopped.
 */
export async function stackOfItsOwn(
  s: Settings,
  cleanups: Array<() => Promise<void>>,
  env: NodeJS.ProcessEnv = {},
  launcher?: string,
): Promise<StackOfItsOwn> {
  const stack = await launchStack({ logLevel: s.logLevel, startTimeoutS: 180, env, launcher });
  // Set once the stack answers; a stop before that has no clients to close.
  const opened: { clients?: BenchClients } = {};
  const stop = async () => {
    await opened.clients?.close();
    await stack.stop(s.keepData);
    cleanups.splice(cleanups.indexOf(stop), 1);
  };
  cleanups.push(stop);
  await stack.ready;
  const clients = (opened.clients = await clientsOf(stack, s));
  return { stack, clients, stop };
}
