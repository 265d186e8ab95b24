/**
 * How this service reaches Temporal, in one place: the address, TLS or mutual TLS (TEMPORAL_TLS_*,
 * src/core/config.ts) and the payload codec that encrypts every payload (./payload-codec.ts), for the
 * receiver's client and the worker's connection alike.
 */
import { Client, type TLSConfig } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { NativeConnection } from '@temporalio/worker';
import fs from 'node:fs';
import type { Config, TemporalTls } from '../core/config';
import { PayloadEncryption } from './payload-codec';
import { receiverConnection, type MethodDeadlines } from './connection';
import { nativeConnectionOptions } from './socket-address';

/** What a connection to Temporal needs of the configuration. */
type TemporalSettings = CodecSettings & {
  temporal: Pick<Config['temporal'], 'namespace' | 'tls'> & { address?: string };
};

/** A readiness probe's question to Temporal (GET /readyz) may take this long. */
const READY_ASK_MS = 2000;

/**
 * The receiver's questions to Temporal and how long each may take (./connection.ts).
 * A delivery's start: past TEMPORAL_START_TIMEOUT_MS the sender is answered 503. A workflow's
 * description (a repeat's original, the body sweep, a held delivery's state) waits as long.
 * Signals, lists and the search-attribute registration have no deadline.
 */
export function receiverDeadlines(startTimeoutMs: number): MethodDeadlines {
  return {
    StartWorkflowExecution: startTimeoutMs,
    DescribeWorkflowExecution: startTimeoutMs,
    GetSystemInfo: READY_ASK_MS,
  };
}

/** The SDK's TLS settings from the files named, or undefined for plain TCP. */
export function temporalTls(tls: TemporalTls): TLSConfig | undefined {
  if (!tls.enabled) return undefined;
  const read = (file: string | undefined) => (file ? fs.readFileSync(file) : undefined);
  const crt = read(tls.certFile);
  const key = read(tls.keyFile);
  return {
    serverNameOverride: tls.serverName,
    serverRootCACertificate: read(tls.caFile),
    clientCertPair: crt && key ? { crt, key } : undefined,
  };
}

type CodecSettings = Pick<Config, 'secretsKey' | 'previousSecretsKeys' | 'payloadEncryption' | 'acceptUnsealed'>;

/**
 * The payload codec of the client and the worker: SECRETS_KEY seals, the previous keys still open.
 * A worker's (`sealedOnly`) hands its workflows a stand-in for a payload nobody sealed, which they
 * refuse (src/domain/unsealed.ts), unless ACCEPT_UNSEALED_PAYLOADS is on or nothing is sealed at all
 * (PAYLOAD_ENCRYPTION=0, a bench setting).
 */
export function payloadEncryption(config: CodecSettings, { sealedOnly = false } = {}): PayloadEncryption {
  const keys = [config.secretsKey, ...config.previousSecretsKeys];
  const strict = sealedOnly && config.payloadEncryption && !config.acceptUnsealed;
  return new PayloadEncryption(keys, { seal: config.payloadEncryption, sealedOnly: strict });
}

/**
 * Failures are encoded too (`encodeCommonAttributes`): a failure's message and stack travel in a
 * sealed payload, so a parser's error quoting a body never reaches Temporal in clear. The workflow
 * bundle loads the same converter (WORKFLOW_BUNDLE_OPTIONS, src/runtime/worker.ts).
 */
export const FAILURE_CONVERTER_PATH = require.resolve('./failure-converter');

export function dataConverter(config: CodecSettings, opts: { sealedOnly?: boolean } = {}): DataConverter {
  return { payloadCodecs: [payloadEncryption(config, opts)], failureConverterPath: FAILURE_CONVERTER_PATH };
}

function addressOf(config: TemporalSettings): string {
  if (!config.temporal.address) throw new Error('TEMPORAL_ADDRESS is not set');
  return config.temporal.address;
}

/**
 * The receiver's client. Lazy: the receiver starts (and answers 503) even while Temporal is down.
 * Its calls have the receiver's deadlines; those in flight with none are cancelled when `closing` aborts.
 */
export function createTemporalClient(
  config: TemporalSettings & { temporal: Pick<Config['temporal'], 'startTimeoutMs'> },
  closing?: AbortSignal,
): Client {
  const connection = receiverConnection({
    address: addressOf(config),
    tls: temporalTls(config.temporal.tls),
    namespace: config.temporal.namespace,
    deadlines: receiverDeadlines(config.temporal.startTimeoutMs),
    closing,
  });
  return new Client({ connection, namespace: config.temporal.namespace, dataConverter: dataConverter(config) });
}

/** The worker's connection (its data converter goes to Worker.create); a unix socket's address too. */
export function connectWorker(config: TemporalSettings): Promise<NativeConnection> {
  return NativeConnection.connect(
    nativeConnectionOptions(addressOf(config), { tls: temporalTls(config.temporal.tls) }),
  );
}

/**
 * A client on the worker's own connection, its payloads sealed as a receiver's: what the worker
 * starts workflows with (an issue's notification, src/notifications/start.ts).
 */
export function workerClient(connection: NativeConnection, config: TemporalSettings): Client {
  return new Client({ connection, namespace: config.temporal.namespace, dataConverter: dataConverter(config) });
}

/** Whether Temporal answers the receiver's client within READY_ASK_MS. */
export async function temporalAnswers(client: Client): Promise<boolean> {
  try {
    await client.workflowService.getSystemInfo({});
    return true;
  } catch {
    return false;
  }
}
