/**
 * The one place that reads the environment (its settings and their checks: ./config-env.ts).
 * Every process calls loadConfig() once at start; a bad value stops it with a message naming the
 * variable, the value typed and what is expected (./settings/messages.ts).
 */
import path from 'node:path';
import type { LogFormat, LogLevel } from './log';
import type { DeliveryCaps } from '../domain/delivery-caps';
import type { PreparationLimits } from '../domain/limits';
import type { RunFeatures } from '../domain/types';
import type { NotifyRetry } from '../domain/notifications';
import { ConfigError, keptSecrets } from './config-secrets';
import { envSchema } from './config-env';
import { issueLines } from './settings/messages';

export { ConfigError };

export interface Config {
  port: number;
  /**
   * The address the service's port listens on (HOST): every address unless given; the cluster's
   * receivers take loopback, behind the entry.
   */
  host?: string;
  baseUrl: string;
  dataDir: string;
  temporal: { address?: string; namespace: string; taskQueue: string; startTimeoutMs: number; tls: TemporalTls };
  mongodbUri?: string;
  adminToken: string;
  /** Whether the admin token came from ADMIN_TOKEN (launchers then do not print it). */
  adminTokenFromEnv: boolean;
  /**
   * The Temporal Web UI's codec key (WEB_UI_KEY, else DATA_DIR/web-ui-key): it opens the codec
   * endpoints only, is rotated on its own, and is given to a browser by its operator
   * (src/codec/routes.ts), never to the Web UI's served settings.
   */
  webUiKey: string;
  webUiKeyFromEnv: boolean;
  secretsKey: Buffer;
  /** Keys SECRETS_KEY replaced: what they sealed or encrypted is still read (SECRETS_KEY_PREVIOUS). */
  previousSecretsKeys: Buffer[];
  /** SECRETS_KEY, then the previous keys: every key a sealed secret may have been sealed with. */
  secretsKeys: Buffer[];
  maxBodyBytes: number;
  inlineBodyBytes: number;
  /** Body bytes one receiver holds at once, and one URL's share of them; past either, 503 (receiver/body-budget.ts). */
  maxInflightBodyBytes: number;
  maxInflightBodyBytesPerTrigger: number;
  /** The receiver's HTTP server against slow senders (src/domain/limits/requests.ts). */
  http: {
    headersTimeoutMs: number;
    bodyIdleTimeoutMs: number;
    requestTimeoutMs: number;
    maxConnections: number;
    maxConnectionsPerAddress: number;
  };
  /**
   * Proxies whose X-Forwarded-For gives the client's address (TRUST_PROXY, src/core/client-address.ts):
   * none by default; the cluster's entry and compose's nginx are on loopback or a private network.
   */
  trustedProxies: string[];
  /** The entry's certificate and key (TLS_CERT, TLS_KEY): `npm run start:cluster` makes a pair without them. */
  edgeTls: { certFile: string; keyFile: string } | null;
  /** Refusals a client address (wrong admin tokens) or a trigger (rejected deliveries) may have a minute. */
  throttles: { authFailuresPerMinute: number; rejectedPerMinute: number };
  /** What one workspace may hold (src/domain/limits/workspace-sizes.ts): past it a create is refused 409. */
  workspaceSizes: { maxRobots: number; maxApps: number };
  /** The receiver's metrics and health port (GET /metrics, GET /healthz); 0 for none. */
  receiverMetricsPort: number;
  /**
   * The address the receiver's and the worker's metrics ports listen on (METRICS_HOST): loopback
   * by default, for the operator's network only when set (compose: `0.0.0.0`, on its internal network).
   */
  metricsHost: string;
  /** What one delivery may make (src/domain/limits/deliveries.ts): past a cap it is failed, with no run. */
  deliveryCaps: DeliveryCaps;
  triggerCacheTtlMs: number;
  /** false only to measure it (TRIGGER_CACHE_COALESCE=0): src/receiver/trigger-cache.ts. */
  triggerCacheCoalesce: boolean;
  /** The embedded dev server's ports; its metrics' port is the server's own choice when unset. */
  embedded: { temporalPort: number; temporalUiPort: number; temporalMetricsPort?: number };
  /** `npm run start:cluster` (docs/cluster.md): how many receivers and workers, and PostgreSQL's port. */
  cluster: { receivers: number; workers: number; postgresPort: number };
  logLevel: LogLevel;
  /** JSON lines, or readable ones (the default in a terminal). */
  logFormat: LogFormat;
  /** How long runs and deliveries are kept in history, in ms (0: forever). */
  historyRetentionMs: number;
  /** How long the audit log keeps an entry (AUDIT_RETENTION, default a year; 0: forever). */
  auditRetentionMs: number;
  /** An issue notifies at most once in this long (ISSUE_NOTIFY_INTERVAL, default an hour; 0: every opening). */
  issueNotifyIntervalMs: number;
  /** Whether this worker runs a history keeper (one of all workers does the work, by lease). */
  historyKeeper: boolean;
  /** What deliveries' workflows do beyond running runs (each on by default; the bench turns each off in turn). */
  runFeatures: RunFeatures;
  /** Payloads sealed for Temporal (PAYLOAD_ENCRYPTION; off only to measure its cost: sealed ones are read anyway). */
  payloadEncryption: boolean;
  /**
   * A worker's workflows take payloads nobody sealed (ACCEPT_UNSEALED_PAYLOADS=1: only while
   * histories of deliveries from before 0.5 are open). Off, such a start is refused
   * (src/domain/unsealed.ts).
   */
  acceptUnsealed: boolean;
  /** The niceness of the worker's threads: acks before runs on a shared machine (src/launch/os/worker-priority.ts). */
  workerNice: number;
  /**
   * Workflow tasks a worker holds at once (WORKER_WORKFLOW_TASKS, src/runtime/worker.ts): what it asks of
   * Temporal at a time, and so how long a delivery's start may queue behind runs there.
   */
  workerWorkflowTasks: number;
  /** What a worker prepares at once (PREPARING_BODY_BYTES and the rest, src/deliveries/preparation-lane.ts). */
  preparation: PreparationLimits;
  /** The worker's metrics port (0: none), and the loopback port of the Temporal SDK's exporter behind it. */
  workerMetricsPort: number;
  sdkMetricsPort: number;
  /** The Temporal Web UI, for links to workflows (the embedded launcher sets its own). */
  temporalUiUrl: string | null;
  /** Notifications (docs/notifications.md): email channels' SMTP server, where they may go, their retries. */
  notifications: NotificationSettings;
}

/** SMTP_URL, SMTP_FROM, NOTIFY_ALLOW_PRIVATE_ADDRESSES, NOTIFY_ATTEMPTS and NOTIFY_BACKOFF_MS, read. */
export interface NotificationSettings {
  smtpUrl: string | null;
  smtpFrom: string;
  allowPrivateAddresses: boolean;
  retry: NotifyRetry;
}

/**
 * TLS to Temporal (the Temporal CLI's variables): TEMPORAL_TLS_CA (the server's CA), TEMPORAL_TLS_CERT
 * and TEMPORAL_TLS_KEY (this client's certificate, for mutual TLS), TEMPORAL_TLS_SERVER_NAME; TLS is
 * on when any is set, or with TEMPORAL_TLS=1 (the system's CAs).
 */
export interface TemporalTls {
  enabled: boolean;
  caFile?: string;
  certFile?: string;
  keyFile?: string;
  serverName?: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(`Invalid environment:\n${issueLines(parsed.error.issues, env).join('\n')}`);
  }
  const e = parsed.data;
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS)
    throw new ConfigError('Invalid environment:\n  HEADERS_TIMEOUT_MS: must not be over REQUEST_TIMEOUT_MS');
  if ((e.TLS_CERT === undefined) !== (e.TLS_KEY === undefined))
    throw new ConfigError('Invalid environment:\n  TLS_CERT, TLS_KEY: give both, or neither');
  const baseUrl = (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  // In production, webhook URLs carry their token, and the API the admin token: never in clear.
  if (env.NODE_ENV === 'production' && baseUrl.startsWith('http://') && e.ALLOW_HTTP_BASE_URL !== '1')
    throw new ConfigError(
      'Invalid environment:\n  BASE_URL: must be https:// in production (the URLs carry their token); ' +
        'ALLOW_HTTP_BASE_URL=1 if TLS ends in front of this service on the same private network',
    );
  const dataDir = path.resolve(e.DATA_DIR);
  const { adminToken, secretsKey, webUiKey } = keptSecrets(dataDir, {
    adminToken: e.ADMIN_TOKEN,
    secretsKey: e.SECRETS_KEY,
    webUiKey: e.WEB_UI_KEY,
  });
  const previous = (e.SECRETS_KEY_PREVIOUS ?? []).map((k) => Buffer.from(k, 'base64'));
  return {
    port: e.PORT,
    baseUrl,
    dataDir,
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      startTimeoutMs: e.TEMPORAL_START_TIMEOUT_MS,
      tls: {
        enabled:
          e.TEMPORAL_TLS === '1' ||
          (e.TEMPORAL_TLS !== '0' &&
            [e.TEMPORAL_TLS_CA, e.TEMPORAL_TLS_CERT, e.TEMPORAL_TLS_KEY, e.TEMPORAL_TLS_SERVER_NAME].some(Boolean)),
        caFile: e.TEMPORAL_TLS_CA,
        certFile: e.TEMPORAL_TLS_CERT,
        keyFile: e.TEMPORAL_TLS_KEY,
        serverName: e.TEMPORAL_TLS_SERVER_NAME,
      },
    },
    mongodbUri: e.MONGODB_URI,
    adminToken,
    adminTokenFromEnv: e.ADMIN_TOKEN !== undefined,
    webUiKey,
    webUiKeyFromEnv: e.WEB_UI_KEY !== undefined,
    secretsKey: Buffer.from(secretsKey, 'base64'),
    previousSecretsKeys: previous,
    secretsKeys: [Buffer.from(secretsKey, 'base64'), ...previous],
    maxBodyBytes: e.MAX_BODY_BYTES,
    inlineBodyBytes: e.INLINE_BODY_BYTES,
    maxInflightBodyBytes: e.MAX_INFLIGHT_BODY_BYTES,
    maxInflightBodyBytesPerTrigger: e.MAX_INFLIGHT_BODY_BYTES_PER_TRIGGER,
    http: {
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
      bodyIdleTimeoutMs: e.BODY_IDLE_TIMEOUT_MS,
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      maxConnections: e.MAX_CONNECTIONS,
      maxConnectionsPerAddress: e.MAX_CONNECTIONS_PER_ADDRESS,
    },
    trustedProxies: e.TRUST_PROXY,
    edgeTls: e.TLS_CERT && e.TLS_KEY ? { certFile: e.TLS_CERT, keyFile: e.TLS_KEY } : null,
    throttles: { authFailuresPerMinute: e.AUTH_FAILURES_PER_MINUTE, rejectedPerMinute: e.REJECTED_PER_MINUTE },
    workspaceSizes: { maxRobots: e.MAX_ROBOTS_PER_WORKSPACE, maxApps: e.MAX_APPS_PER_WORKSPACE },
    receiverMetricsPort: e.RECEIVER_METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    host: e.HOST,
    deliveryCaps: {
      CSV_MAX_ROWS: e.CSV_MAX_ROWS,
      CSV_MAX_COLUMNS: e.CSV_MAX_COLUMNS,
      CSV_MAX_CELL_BYTES: e.CSV_MAX_CELL_BYTES,
      CSV_MAX_HEADER_CELL_BYTES: e.CSV_MAX_HEADER_CELL_BYTES,
      MAX_TRIGGER_BYTES: e.MAX_TRIGGER_BYTES,
      MAX_TRIGGER_ITEMS: e.MAX_TRIGGER_ITEMS,
      RULE_MATCH_CHARS_PER_DELIVERY: e.RULE_MATCH_CHARS_PER_DELIVERY,
      FANOUT_ROWS_PER_HOUR: e.FANOUT_ROWS_PER_HOUR,
      FANOUT_ROWS_PER_HOUR_PER_WORKSPACE: e.FANOUT_ROWS_PER_HOUR_PER_WORKSPACE,
    },
    triggerCacheTtlMs: e.TRIGGER_CACHE_TTL_MS,
    triggerCacheCoalesce: e.TRIGGER_CACHE_COALESCE === '1',
    embedded: {
      temporalPort: e.EMBEDDED_TEMPORAL_PORT,
      temporalUiPort: e.EMBEDDED_TEMPORAL_UI_PORT,
      ...(e.EMBEDDED_TEMPORAL_METRICS_PORT === undefined
        ? {}
        : { temporalMetricsPort: e.EMBEDDED_TEMPORAL_METRICS_PORT }),
    },
    cluster: { receivers: e.CLUSTER_RECEIVERS, workers: e.CLUSTER_WORKERS, postgresPort: e.CLUSTER_POSTGRES_PORT },
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (process.stderr.isTTY ? 'pretty' : 'json'),
    historyRetentionMs: e.HISTORY_RETENTION,
    auditRetentionMs: e.AUDIT_RETENTION,
    issueNotifyIntervalMs: e.ISSUE_NOTIFY_INTERVAL,
    historyKeeper: e.HISTORY_KEEPER === '1',
    runFeatures: {
      runSearchAttributes: e.RUN_SEARCH_ATTRIBUTES === '1',
      runSummaries: e.RUN_SUMMARIES === '1',
      keepBodies: e.KEEP_BODIES === '1',
      fieldsSeen: e.FIELDS_SEEN === '1',
    },
    payloadEncryption: e.PAYLOAD_ENCRYPTION === '1',
    acceptUnsealed: e.ACCEPT_UNSEALED_PAYLOADS === '1',
    workerNice: e.WORKER_NICE,
    workerWorkflowTasks: e.WORKER_WORKFLOW_TASKS,
    preparation: {
      bodyBytes: e.PREPARING_BODY_BYTES,
      largeBodies: e.LARGE_BODY_PREPARATIONS,
      attempts: e.PREPARATION_ATTEMPTS,
    },
    workerMetricsPort: e.WORKER_METRICS_PORT,
    sdkMetricsPort: e.SDK_METRICS_PORT,
    temporalUiUrl: e.TEMPORAL_UI_URL?.replace(/\/+$/, '') ?? null,
    notifications: {
      smtpUrl: e.SMTP_URL ?? null,
      smtpFrom: e.SMTP_FROM ?? `webhooks@${new URL(baseUrl).hostname}`,
      allowPrivateAddresses: e.NOTIFY_ALLOW_PRIVATE_ADDRESSES === '1',
      retry: { attempts: e.NOTIFY_ATTEMPTS, backoffMs: e.NOTIFY_BACKOFF_MS },
    },
  };
}

/** Addresses every process needs; in a service process both must be set (the launcher sets them). */
export function requireServers(config: Config): { temporalAddress: string; mongodbUri: string } {
  if (!config.temporal.address) throw new ConfigError('TEMPORAL_ADDRESS is not set (the embedded launcher sets it)');
  if (!config.mongodbUri) throw new ConfigError('MONGODB_URI is not set (the embedded launcher sets it)');
  return { temporalAddress: config.temporal.address, mongodbUri: config.mongodbUri };
}
