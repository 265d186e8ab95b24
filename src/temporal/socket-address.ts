/**
 * A Temporal address that names a unix socket (`unix:///path/to/grpc.sock`): the embedded dev
 * server's, which listens in a private network namespace and is reached through a socket in the
 * data folder only (src/launch/servers/dev-namespace.ts). gRPC dials one: grpc-js and grpc-go take
 * `unix:` targets, so the Temporal CLI takes `--address unix:///…` as it is. The TypeScript SDK
 * (1.24) checks that an address is `host:port` before gRPC sees it, so:
 *
 * - the client (`Connection`): the SDK is given a placeholder `host:port`, and the class's gRPC
 *   client constructor dials the socket instead (`dialing`);
 * - the worker (`NativeConnection`, Rust): its HTTP CONNECT proxy may be a unix socket
 *   (`unix:/path`, sdk-core's `ProxyStream`), which the SDK's option check refuses; the proxy is
 *   named by a placeholder that `toNativeClientOptions` turns into the socket. The bridge in the
 *   namespace answers CONNECT once per connection and then only copies bytes.
 *
 * Either is checked when used: an SDK whose shape changed fails the connection with a clear error
 * (test/dev-server.test.ts and every integration test connect this way).
 */
import { Connection } from '@temporalio/client';
import type { NativeConnectionOptions } from '@temporalio/worker';

export const isUnixAddress = (address: string): boolean => address.startsWith('unix:');

/** `unix:///abs/path` (or `unix:/abs/path`) → `/abs/path`. */
export const unixSocketPath = (address: string): string => address.replace(/^unix:(\/\/)?/, '');

/** The address of a socket at an absolute path. */
export const unixAddress = (socketPath: string): string => `unix://${socketPath}`;

/** What the SDK is told in place of a socket's address: never dialled (see the module's doc). */
const PLACEHOLDER = 'localhost:7233';

type GrpcClientClass = typeof Connection.Client;

/** A Connection class (Connection or a subclass) whose gRPC client dials `address` whatever it is given. */
export function dialing<C extends typeof Connection>(Base: C, address: string): C {
  if (typeof Base.Client !== 'function') throw new Error('@temporalio/client: Connection.Client is gone');
  const Grpc: GrpcClientClass = Base.Client;
  class SocketClient extends Grpc {
    constructor(...[, credentials, options]: ConstructorParameters<GrpcClientClass>) {
      super(address, credentials, options);
    }
  }
  // @ts-expect-error -- a subclass of a class expression: TypeScript cannot name its static side
  return class extends Base {
    static override Client = SocketClient;
  };
}

/** The class and `address` option to give Connection.connect or .lazy for a Temporal address. */
export function connectionTo<C extends typeof Connection>(
  address: string,
  Base: C,
): { Connection: C; address: string } {
  return isUnixAddress(address)
    ? { Connection: dialing(Base, address), address: PLACEHOLDER }
    : { Connection: Base, address };
}

/** Connects a client (`Connection`) to a Temporal address, a unix socket's too. */
export function connectTemporal(
  address: string,
  options: Omit<Parameters<typeof Connection.connect>[0] & object, 'address'> = {},
): Promise<Connection> {
  const to = connectionTo(address, Connection);
  return to.Connection.connect({ ...options, address: to.address });
}

interface NativeProxy {
  targetHost: string;
  basicAuth: unknown;
}
interface ConnectionOptionsModule {
  toNativeClientOptions: (options: NativeConnectionOptions) => { httpConnectProxy: NativeProxy | null };
}

/** Placeholder proxy hosts (`<n>.unix.invalid:1`) and the socket each stands for. */
const socketsByPlaceholder = new Map<string, string>();
let patched = false;

function patchNativeOptions(): void {
  if (patched) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the SDK's module object, patched in place
  const mod = require('@temporalio/worker/lib/connection-options') as ConnectionOptionsModule;
  const original = mod.toNativeClientOptions;
  if (typeof original !== 'function')
    throw new Error('@temporalio/worker: toNativeClientOptions is gone; a unix socket address cannot be used');
  mod.toNativeClientOptions = (options) => {
    const native = original(options);
    const socket = native.httpConnectProxy && socketsByPlaceholder.get(native.httpConnectProxy.targetHost);
    if (socket) native.httpConnectProxy = { targetHost: `unix:${socket}`, basicAuth: null };
    return native;
  };
  patched = true;
}

/** NativeConnection options for a Temporal address: a unix socket's go through its CONNECT bridge. */
export function nativeConnectionOptions(
  address: string,
  options: Omit<NativeConnectionOptions, 'address'> = {},
): NativeConnectionOptions {
  if (!isUnixAddress(address)) return { ...options, address };
  patchNativeOptions();
  const socket = unixSocketPath(address);
  let placeholder = [...socketsByPlaceholder].find(([, s]) => s === socket)?.[0];
  if (!placeholder) {
    placeholder = `s${socketsByPlaceholder.size}.unix.invalid:1`;
    socketsByPlaceholder.set(placeholder, socket);
  }
  return { ...options, address: PLACEHOLDER, proxy: { type: 'http-connect', targetHost: placeholder } };
}
