/**
 * The receiver's connection to Temporal. A gRPC interceptor does what the SDK would otherwise do
 * through an AsyncLocalStorage:
 * - a call of a method named in `deadlines` gets a deadline of now + its milliseconds; methods not
 *   named get none, as in the SDK; the SDK's retries on UNAVAILABLE run inside that one deadline;
 * - a call of the workflow service names the namespace in its `temporal-namespace` header, as the
 *   SDK's own wrapper does for every request that carries one (GetSystemInfo carries none);
 * - when `closing` aborts, every call in flight that has no deadline is cancelled (the others end
 *   by their deadline: a start in flight at a close still answers its request).
 *
 * Why: the SDK's `withDeadline`, `withAbortSignal` and namespace header keep their values in an
 * AsyncLocalStorage. Once one is entered, Node 20 runs promise hooks on every promise of the
 * process from then on: 100–400 ns per await, a few percent of the receiver's CPU per ack
 * (docs/benchmark.md, "The ack path's floor"). test/unit/temporal-connection.test.ts checks that
 * no AsyncLocalStorage is entered, that the header and the deadlines reach the server, and so
 * that an SDK upgrade which changes the wrapper is seen.
 */
import { InterceptingCall, status, type Interceptor, type NextCall } from '@grpc/grpc-js';
import {
  Connection,
  defaultGrpcRetryOptions,
  makeGrpcRetryInterceptor,
  type ConnectionOptions,
} from '@temporalio/client';
import { connectionTo } from './socket-address';

const WORKFLOW_SERVICE = '/temporal.api.workflowservice.v1.WorkflowService/';
/** The workflow service's methods whose requests name no namespace. */
const NO_NAMESPACE = new Set(['GetSystemInfo']);

/** A call as the next interceptor gives it. */
type Call = ReturnType<NextCall>;

/** Milliseconds per gRPC method name (the part of its path after the last `/`). */
export type MethodDeadlines = Readonly<Record<string, number>>;

interface ReceiverConnectionOptions extends Pick<ConnectionOptions, 'address' | 'tls'> {
  namespace: string;
  deadlines: MethodDeadlines;
  closing?: AbortSignal;
}

/** Connection.lazy, but its workflow service is not wrapped to set the namespace header through withMetadata. */
class ConnectionWithoutContext extends Connection {}
(
  ConnectionWithoutContext.prototype as unknown as { withNamespaceHeaderInjector: (service: unknown) => unknown }
).withNamespaceHeaderInjector = (service) => service;

/** A lazy connection: nothing is asked of Temporal until the first call (a unix socket too: ./socket-address.ts). */
export function receiverConnection({
  namespace,
  deadlines,
  closing,
  ...options
}: ReceiverConnectionOptions): Connection {
  const to = options.address
    ? connectionTo(options.address, ConnectionWithoutContext)
    : { Connection: ConnectionWithoutContext, address: undefined };
  return to.Connection.lazy({
    ...options,
    address: to.address,
    // The first is the outermost: its deadline spans the SDK's retries.
    interceptors: [callInterceptor(namespace, deadlines, closing), makeGrpcRetryInterceptor(defaultGrpcRetryOptions())],
  });
}

function callInterceptor(namespace: string, deadlines: MethodDeadlines, closing?: AbortSignal): Interceptor {
  // The calls in flight with no deadline, for `closing` (one listener for all: one per call would pass
  // Node's limit of 10).
  const inFlight = new Set<Call>();
  closing?.addEventListener('abort', () => inFlight.forEach(cancel), { once: true });
  return (options, nextCall) => {
    const path = options.method_definition.path;
    const method = path.slice(path.lastIndexOf('/') + 1);
    const ms = deadlines[method];
    const call = nextCall(ms === undefined || options.deadline ? options : { ...options, deadline: Date.now() + ms });
    const named = path.startsWith(WORKFLOW_SERVICE) && !NO_NAMESPACE.has(method);
    const unbounded = ms === undefined && options.deadline === undefined;
    return new InterceptingCall(call, {
      start(metadata, listener, next) {
        if (named) metadata.set('temporal-namespace', namespace);
        if (!closing || !unbounded) return next(metadata, listener);
        inFlight.add(call);
        next(metadata, {
          onReceiveStatus(received, nextStatus) {
            inFlight.delete(call);
            nextStatus(received);
          },
        });
        if (closing.aborted) cancel(call);
      },
    });
  };
}

function cancel(call: Call): void {
  call.cancelWithStatus(status.CANCELLED, 'the receiver is closing');
}
