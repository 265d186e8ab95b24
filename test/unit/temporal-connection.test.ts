/**
 * The receiver's connection to Temporal (src/temporal/connection.ts, receiverDeadlines in
 * src/temporal/client.ts), against a real gRPC server on loopback that takes every call and never
 * answers: a Temporal that hangs.
 */
import {
  Server,
  ServerCredentials,
  status,
  type ServerUnaryCall,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import type { Client } from '@temporalio/client';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/core/log';
import { registerSearchAttributes } from '../../src/temporal/search-attribute-setup';
import { createTemporalClient, temporalAnswers } from '../../src/temporal/client';

const START_TIMEOUT_MS = 300;
const WORKFLOWS = '/temporal.api.workflowservice.v1.WorkflowService/';
const OPERATOR = '/temporal.api.operatorservice.v1.OperatorService/';
const HUNG = [
  `${WORKFLOWS}StartWorkflowExecution`,
  `${WORKFLOWS}DescribeWorkflowExecution`,
  `${WORKFLOWS}GetSystemInfo`,
  `${WORKFLOWS}ListWorkflowExecutions`,
  `${OPERATOR}ListSearchAttributes`,
];

/** A call the server took: the deadline it came with (Infinity: none), its namespace header, its cancellation. */
interface Taken {
  deadline: number;
  namespace: string | undefined;
  cancelled: Promise<void>;
}

const raw = (b: Buffer) => b;
const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
let server: Server;
let address: string;
const waiting = new Map<string, (call: Taken) => void>();

/** The next call of `method` the server takes. */
function taken(method: string): Promise<Taken> {
  return new Promise((resolve) => waiting.set(method, resolve));
}

beforeAll(async () => {
  server = new Server();
  const definition: ServiceDefinition = Object.fromEntries(
    HUNG.map((path) => [
      nameOf(path),
      {
        path,
        requestStream: false,
        responseStream: false,
        requestSerialize: raw,
        requestDeserialize: raw,
        responseSerialize: raw,
        responseDeserialize: raw,
      },
    ]),
  );
  const handlers: UntypedServiceImplementation = Object.fromEntries(
    HUNG.map((path) => [
      nameOf(path),
      (call: ServerUnaryCall<Buffer, Buffer>) => {
        const cancelled = new Promise<void>((resolve) => call.on('cancelled', () => resolve()));
        const namespace = call.metadata.get('temporal-namespace')[0]?.toString();
        waiting.get(nameOf(path))?.({ deadline: Number(call.getDeadline()), namespace, cancelled });
      },
    ]),
  );
  server.addService(definition, handlers);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  address = `127.0.0.1:${port}`;
});

afterAll(() => server.forceShutdown());

function receiverClient(closing?: AbortSignal): Client {
  return createTemporalClient(
    {
      temporal: { address, namespace: 'robots', tls: { enabled: false }, startTimeoutMs: START_TIMEOUT_MS },
      secretsKey: randomBytes(32),
      previousSecretsKeys: [],
      payloadEncryption: true,
      acceptUnsealed: false,
    },
    closing,
  );
}

/**
 * Runs `call` and returns the call the server took for it, with the time window in which it was made.
 * Fails at once if the call settles before the server took it (a deadline spent connecting, say).
 */
async function ask(method: string, call: () => Promise<unknown>) {
  const arrived = taken(method);
  const before = Date.now();
  const answer = call();
  answer.catch(() => undefined); // Read later, by codeOf.
  const untaken = answer.then(
    () => Promise.reject(new Error(`${method} was answered before the server took it`)),
    (e: unknown) => Promise.reject(new Error(`${method} failed before the server took it: ${String(e)}`)),
  );
  const took = await Promise.race([arrived, untaken]);
  return { took, before, after: Date.now(), answer };
}

/**
 * A receiver's client whose channel is connected: a call without a deadline (a list) has reached the
 * server. Otherwise a short deadline can run out while the channel connects on a busy machine.
 */
async function connectedReceiverClient(closing?: AbortSignal): Promise<Client> {
  const client = receiverClient(closing);
  await ask('ListWorkflowExecutions', () => client.workflowService.listWorkflowExecutions({ namespace: 'robots' }));
  return client;
}

/** The gRPC code a rejection carries (the SDK wraps it in a ServiceError whose cause is the gRPC error). */
async function codeOf(answer: Promise<unknown>): Promise<number | undefined> {
  const err = (await answer.then(
    () => undefined,
    (e: unknown) => e,
  )) as { code?: number; cause?: { code?: number } } | undefined;
  return err?.code ?? err?.cause?.code;
}

it('a start and a description wait TEMPORAL_START_TIMEOUT_MS, a readiness question 2 s, and then fail', async () => {
  const client = await connectedReceiverClient();
  try {
    const start = await ask('StartWorkflowExecution', () =>
      client.workflow.start('delivery', { taskQueue: 'q', workflowId: 'w', args: [] }),
    );
    expect(start.took.deadline).toBeGreaterThanOrEqual(start.before + START_TIMEOUT_MS);
    expect(start.took.deadline).toBeLessThanOrEqual(start.after + START_TIMEOUT_MS);
    expect(start.took.namespace).toBe('robots');
    expect(await codeOf(start.answer)).toBe(status.DEADLINE_EXCEEDED);

    const describe = await ask('DescribeWorkflowExecution', () => client.workflow.getHandle('w').describe());
    expect(describe.took.deadline).toBeGreaterThanOrEqual(describe.before + START_TIMEOUT_MS);
    expect(describe.took.deadline).toBeLessThanOrEqual(describe.after + START_TIMEOUT_MS);
    expect(describe.took.namespace).toBe('robots');
    expect(await codeOf(describe.answer)).toBe(status.DEADLINE_EXCEEDED);

    const ready = await ask('GetSystemInfo', () => temporalAnswers(client));
    expect(ready.took.deadline).toBeGreaterThanOrEqual(ready.before + 2000);
    expect(ready.took.deadline).toBeLessThanOrEqual(ready.after + 2000);
    expect(ready.took.namespace).toBeUndefined();
    expect(await ready.answer).toBe(false);
  } finally {
    await client.connection.close();
  }
});

it('other calls have no deadline; a close cancels those in flight (the registration too), not a start', async () => {
  const closing = new AbortController();
  const client = receiverClient(closing.signal);
  const quiet = createLogger('receiver', 'error', {
    format: 'json',
    destination: new Writable({ write: (_c, _e, cb) => cb() }),
  });
  const warnings: string[] = [];
  const warned = (w: Error) => warnings.push(w.name);
  process.on('warning', warned);
  try {
    // More calls in flight than Node's 10 listeners per signal.
    const lists = [];
    for (let i = 0; i < 12; i++)
      lists.push(
        await ask('ListWorkflowExecutions', () =>
          client.workflowService.listWorkflowExecutions({ namespace: 'robots' }),
        ),
      );
    expect(lists.map((l) => l.took.deadline)).toEqual(Array(12).fill(Infinity));
    const registration = await ask('ListSearchAttributes', () =>
      registerSearchAttributes(client.connection, 'robots', quiet, closing.signal),
    );
    expect(registration.took.deadline).toBe(Infinity);
    const start = await ask('StartWorkflowExecution', () =>
      client.workflow.start('delivery', { taskQueue: 'q', workflowId: 'w', args: [] }),
    );

    closing.abort();
    await Promise.all([...lists, registration].map((c) => c.took.cancelled));
    expect(await Promise.all(lists.map((l) => codeOf(l.answer)))).toEqual(Array(12).fill(status.CANCELLED));
    await expect(registration.answer).resolves.toBeUndefined();
    expect(warnings).toEqual([]);
    // A start has a deadline: it ends by it, so a request in flight at a close still gets its answer.
    expect(await codeOf(start.answer)).toBe(status.DEADLINE_EXCEEDED);
  } finally {
    process.off('warning', warned);
    await client.connection.close();
  }
});

it('enters no AsyncLocalStorage (the SDK would, for the namespace header), so Node runs no promise hooks', async () => {
  const run = jest.spyOn(AsyncLocalStorage.prototype, 'run');
  const enterWith = jest.spyOn(AsyncLocalStorage.prototype, 'enterWith');
  const client = await connectedReceiverClient();
  try {
    const start = await ask('StartWorkflowExecution', () =>
      client.workflow.start('delivery', { taskQueue: 'q', workflowId: 'w', args: [] }),
    );
    await codeOf(start.answer);
    expect(run).not.toHaveBeenCalled();
    expect(enterWith).not.toHaveBeenCalled();
  } finally {
    run.mockRestore();
    enterWith.mockRestore();
    await client.connection.close();
  }
});
