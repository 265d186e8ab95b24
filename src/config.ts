/**
 * The one place that reads the environment. Every process calls loadConfig() once at start;
 * a bad value stops it with a message naming the variable.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { LogFormat, LogLevel } from './log';
import { DEFAULT_INLINE_BODY_BYTES, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_INFLIGHT_BODY_BYTES } from './domain/limits';

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** A duration such as `30d`, `12h`, `90m` or `45s`; `0` means forever. */
const duration = z
  .string()
  .regex(/^(0|\d+[smhd])$/, 'must be a number followed by s, m, h or d (30d), or 0')
  .transform((v) => (v === '0' ? 0 : Number(v.slice(0, -1)) * UNIT_MS[v.slice(-1) as keyof typeof UNIT_MS]));

const envSchema = z.object({
  PORT: port.default(3000),
  BASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  TEMPORAL_ADDRESS: z.string().min(1).optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('webhook-triggers'),
  MONGODB_URI: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://')
    .optional(),
  ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  SECRETS_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64-encoded')
    .optional(),
  MAX_BODY_BYTES: positiveInt.default(DEFAULT_MAX_BODY_BYTES),
  INLINE_BODY_BYTES: positiveInt.default(DEFAULT_INLINE_BODY_BYTES),
  MAX_INFLIGHT_BODY_BYTES: positiveInt.default(DEFAULT_MAX_INFLIGHT_BODY_BYTES),
  TRIGGER_CACHE_TTL_MS: z.coerce.number().int().min(0).default(5000),
  TEMPORAL_START_TIMEOUT_MS: positiveInt.default(10_000),
  EMBEDDED_TEMPORAL_PORT: port.default(7233),
  EMBEDDED_TEMPORAL_UI_PORT: port.default(8233),
  EMBEDDED_MONGODB_PORT: port.default(27017),
  CLUSTER_RECEIVERS: z.coerce.number().int().min(1).max(16).default(2),
  CLUSTER_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
  CLUSTER_POSTGRES_PORT: port.default(5433),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  HISTORY_RETENTION: duration.default('30d'),
  HISTORY_KEEPER: z.enum(['0', '1']).default('1'),
  WORKER_METRICS_PORT: port.default(9464),
  SDK_METRICS_PORT: port.default(9465),
  TEMPORAL_UI_URL: z.string().url().optional(),
});

export interface Config {
  port: number;
  baseUrl: string;
  dataDir: string;
  temporal: { address?: string; namespace: string; taskQueue: string; startTimeoutMs: number };
  mongodbUri?: string;
  adminToken: string;
  secretsKey: Buffer;
  maxBodyBytes: number;
  inlineBodyBytes: number;
  /** Body bytes one receiver holds at once; past it, 503 (src/receiver/body-budget.ts). */
  maxInflightBodyBytes: number;
  triggerCacheTtlMs: number;
  embedded: { temporalPort: number; temporalUiPort: number; mongodbPort: number };
  /** `npm run start:cluster` (docs/cluster.md): how many receivers and workers, and PostgreSQL's port. */
  cluster: { receivers: number; workers: number; postgresPort: number };
  logLevel: LogLevel;
  /** JSON lines, or readable ones (the default in a terminal). */
  logFormat: LogFormat;
  /** How long runs and deliveries are kept in history, in ms (0: forever). */
  historyRetentionMs: number;
  /** Whether this worker runs a history keeper (one of all workers does the work, by lease). */
  historyKeeper: boolean;
  /** The worker's metrics port (0: none), and the loopback port of the Temporal SDK's exporter behind it. */
  workerMetricsPort: number;
  sdkMetricsPort: number;
  /** The Temporal Web UI, for links to workflows (the embedded launcher sets its own). */
  temporalUiUrl: string | null;
}

export class ConfigError extends Error {}

/** Reads a secret kept in the data folder, creating it on first start (O_EXCL: one writer wins). */
function persistentSecret(dataDir: string, name: string, make: () => string): string {
  const file = path.join(dataDir, name);
  try {
    fs.writeFileSync(file, make(), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return fs.readFileSync(file, 'utf8').trim();
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  let adminToken: string;
  let secretsKey: string;
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    adminToken = e.ADMIN_TOKEN ?? persistentSecret(dataDir, 'admin-token', () => randomBytes(32).toString('base64url'));
    secretsKey = e.SECRETS_KEY ?? persistentSecret(dataDir, 'secrets.key', () => randomBytes(32).toString('base64'));
  } catch (err) {
    const { code } = err as NodeJS.ErrnoException;
    if (!code) throw err;
    const who = process.getuid ? ` by this user (uid ${process.getuid()})` : '';
    throw new ConfigError(
      `DATA_DIR: ${dataDir} cannot be written${who} (${code}); make it writable, or point DATA_DIR elsewhere`,
    );
  }
  return {
    port: e.PORT,
    baseUrl: (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    dataDir,
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      startTimeoutMs: e.TEMPORAL_START_TIMEOUT_MS,
    },
    mongodbUri: e.MONGODB_URI,
    adminToken,
    secretsKey: Buffer.from(secretsKey, 'base64'),
    maxBodyBytes: e.MAX_BODY_BYTES,
    inlineBodyBytes: e.INLINE_BODY_BYTES,
    maxInflightBodyBytes: e.MAX_INFLIGHT_BODY_BYTES,
    triggerCacheTtlMs: e.TRIGGER_CACHE_TTL_MS,
    embedded: {
      temporalPort: e.EMBEDDED_TEMPORAL_PORT,
      temporalUiPort: e.EMBEDDED_TEMPORAL_UI_PORT,
      mongodbPort: e.EMBEDDED_MONGODB_PORT,
    },
    cluster: { receivers: e.CLUSTER_RECEIVERS, workers: e.CLUSTER_WORKERS, postgresPort: e.CLUSTER_POSTGRES_PORT },
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (process.stderr.isTTY ? 'pretty' : 'json'),
    historyRetentionMs: e.HISTORY_RETENTION,
    historyKeeper: e.HISTORY_KEEPER === '1',
    workerMetricsPort: e.WORKER_METRICS_PORT,
    sdkMetricsPort: e.SDK_METRICS_PORT,
    temporalUiUrl: e.TEMPORAL_UI_URL?.replace(/\/+$/, '') ?? null,
  };
}

/** Addresses every process needs; in a service process both must be set (the launcher sets them). */
export function requireServers(config: Config): { temporalAddress: string; mongodbUri: string } {
  if (!config.temporal.address) throw new ConfigError('TEMPORAL_ADDRESS is not set (the embedded launcher sets it)');
  if (!config.mongodbUri) throw new ConfigError('MONGODB_URI is not set (the embedded launcher sets it)');
  return { temporalAddress: config.temporal.address, mongodbUri: config.mongodbUri };
}
