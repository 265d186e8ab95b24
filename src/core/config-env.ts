/**
 * The environment as the service reads it: every setting's name, its default (most from
 * src/domain/limits/, which says why) and its check. ./config.ts turns what it reads into the
 * Config every process gets.
 */
import fs from 'node:fs';
import { z } from 'zod';
import {
  DEFAULT_AUTH_FAILURES_PER_MINUTE,
  DEFAULT_MAX_APPS_PER_WORKSPACE,
  DEFAULT_MAX_ROBOTS_PER_WORKSPACE,
  DEFAULT_BODY_IDLE_TIMEOUT_MS,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_INLINE_BODY_BYTES,
  DEFAULT_LARGE_BODY_PREPARATIONS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
  DEFAULT_MAX_INFLIGHT_BODY_BYTES,
  DEFAULT_MAX_INFLIGHT_BODY_BYTES_PER_TRIGGER,
  DEFAULT_PREPARATION_ATTEMPTS,
  DEFAULT_PREPARING_BODY_BYTES,
  DEFAULT_REJECTED_PER_MINUTE,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from '../domain/limits';
import { DEFAULT_DELIVERY_CAPS } from '../domain/delivery-caps';
import { trustedProxyRanges } from './client-address';
import { adminTokenSchema, secretsKeySchema, webUiKeySchema } from './config-secrets';

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** A duration such as `30d`, `12h`, `90m` or `45s`; `0` means forever. */
const duration = z
  .string()
  .regex(/^(0|\d+[smhd])$/, 'must be a number followed by s, m, h or d (30d), or 0')
  .transform((v) => (v === '0' ? 0 : Number(v.slice(0, -1)) * UNIT_MS[v.slice(-1) as keyof typeof UNIT_MS]));

const readableFile = z.string().refine((f) => {
  try {
    fs.accessSync(f, fs.constants.R_OK);
    return true;
  } catch {
    return false;
  }
}, 'must name a file this process can read');

export const envSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).optional(),
  BASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  TEMPORAL_ADDRESS: z.string().min(1).optional(),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('webhook-triggers'),
  MONGODB_URI: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://')
    .optional(),
  ADMIN_TOKEN: adminTokenSchema.optional(),
  WEB_UI_KEY: webUiKeySchema.optional(),
  SECRETS_KEY: secretsKeySchema.optional(),
  /** Keys SECRETS_KEY replaced, comma-separated: still read (sealed secrets, encrypted payloads), never written. */
  SECRETS_KEY_PREVIOUS: z
    .string()
    .transform((v) => v.split(',').filter(Boolean))
    .pipe(z.array(secretsKeySchema))
    .optional(),
  TEMPORAL_TLS: z.enum(['0', '1']).optional(),
  TEMPORAL_TLS_CA: readableFile.optional(),
  TEMPORAL_TLS_CERT: readableFile.optional(),
  TEMPORAL_TLS_KEY: readableFile.optional(),
  TEMPORAL_TLS_SERVER_NAME: z.string().min(1).optional(),
  MAX_BODY_BYTES: positiveInt.default(DEFAULT_MAX_BODY_BYTES),
  INLINE_BODY_BYTES: positiveInt.default(DEFAULT_INLINE_BODY_BYTES),
  MAX_INFLIGHT_BODY_BYTES: positiveInt.default(DEFAULT_MAX_INFLIGHT_BODY_BYTES),
  MAX_INFLIGHT_BODY_BYTES_PER_TRIGGER: positiveInt.default(DEFAULT_MAX_INFLIGHT_BODY_BYTES_PER_TRIGGER),
  HEADERS_TIMEOUT_MS: positiveInt.default(DEFAULT_HEADERS_TIMEOUT_MS),
  BODY_IDLE_TIMEOUT_MS: positiveInt.default(DEFAULT_BODY_IDLE_TIMEOUT_MS),
  REQUEST_TIMEOUT_MS: positiveInt.default(DEFAULT_REQUEST_TIMEOUT_MS),
  MAX_CONNECTIONS: positiveInt.default(DEFAULT_MAX_CONNECTIONS),
  MAX_CONNECTIONS_PER_ADDRESS: positiveInt.default(DEFAULT_MAX_CONNECTIONS_PER_ADDRESS),
  TLS_CERT: readableFile.optional(),
  TLS_KEY: readableFile.optional(),
  ALLOW_HTTP_BASE_URL: z.enum(['0', '1']).default('0'),
  TRUST_PROXY: z
    .string()
    .default('0')
    .transform((v, ctx) => {
      const ranges = trustedProxyRanges(v);
      if (!Array.isArray(ranges)) ctx.addIssue({ code: 'custom', message: ranges.problem });
      return Array.isArray(ranges) ? ranges : [];
    }),
  AUTH_FAILURES_PER_MINUTE: positiveInt.default(DEFAULT_AUTH_FAILURES_PER_MINUTE),
  REJECTED_PER_MINUTE: positiveInt.default(DEFAULT_REJECTED_PER_MINUTE),
  MAX_ROBOTS_PER_WORKSPACE: positiveInt.default(DEFAULT_MAX_ROBOTS_PER_WORKSPACE),
  MAX_APPS_PER_WORKSPACE: positiveInt.default(DEFAULT_MAX_APPS_PER_WORKSPACE),
  RECEIVER_METRICS_PORT: port.default(9463),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  CSV_MAX_ROWS: positiveInt.default(DEFAULT_DELIVERY_CAPS.CSV_MAX_ROWS),
  CSV_MAX_COLUMNS: positiveInt.default(DEFAULT_DELIVERY_CAPS.CSV_MAX_COLUMNS),
  CSV_MAX_CELL_BYTES: positiveInt.default(DEFAULT_DELIVERY_CAPS.CSV_MAX_CELL_BYTES),
  CSV_MAX_HEADER_CELL_BYTES: positiveInt.default(DEFAULT_DELIVERY_CAPS.CSV_MAX_HEADER_CELL_BYTES),
  MAX_TRIGGER_BYTES: positiveInt.default(DEFAULT_DELIVERY_CAPS.MAX_TRIGGER_BYTES),
  MAX_TRIGGER_ITEMS: positiveInt.default(DEFAULT_DELIVERY_CAPS.MAX_TRIGGER_ITEMS),
  PREPARING_BODY_BYTES: positiveInt.default(DEFAULT_PREPARING_BODY_BYTES),
  LARGE_BODY_PREPARATIONS: positiveInt.default(DEFAULT_LARGE_BODY_PREPARATIONS),
  PREPARATION_ATTEMPTS: positiveInt.default(DEFAULT_PREPARATION_ATTEMPTS),
  RULE_MATCH_CHARS_PER_DELIVERY: positiveInt.default(DEFAULT_DELIVERY_CAPS.RULE_MATCH_CHARS_PER_DELIVERY),
  FANOUT_ROWS_PER_HOUR: positiveInt.default(DEFAULT_DELIVERY_CAPS.FANOUT_ROWS_PER_HOUR),
  FANOUT_ROWS_PER_HOUR_PER_WORKSPACE: positiveInt.default(DEFAULT_DELIVERY_CAPS.FANOUT_ROWS_PER_HOUR_PER_WORKSPACE),
  TRIGGER_CACHE_TTL_MS: z.coerce.number().int().min(0).default(5000),
  TEMPORAL_START_TIMEOUT_MS: positiveInt.default(10_000),
  EMBEDDED_TEMPORAL_PORT: port.default(7233),
  EMBEDDED_TEMPORAL_UI_PORT: port.default(8233),
  EMBEDDED_TEMPORAL_METRICS_PORT: port.optional(),
  CLUSTER_RECEIVERS: z.coerce.number().int().min(1).max(16).default(2),
  CLUSTER_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
  CLUSTER_POSTGRES_PORT: port.default(5433),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  HISTORY_RETENTION: duration.default('30d'),
  AUDIT_RETENTION: duration.default('365d'),
  HISTORY_KEEPER: z.enum(['0', '1']).default('1'),
  RUN_SEARCH_ATTRIBUTES: z.enum(['0', '1']).default('1'),
  RUN_SUMMARIES: z.enum(['0', '1']).default('1'),
  KEEP_BODIES: z.enum(['0', '1']).default('1'),
  FIELDS_SEEN: z.enum(['0', '1']).default('1'),
  PAYLOAD_ENCRYPTION: z.enum(['0', '1']).default('1'),
  ACCEPT_UNSEALED_PAYLOADS: z.enum(['0', '1']).default('0'),
  WORKER_NICE: z.coerce.number().int().min(0).max(19).default(10),
  WORKER_WORKFLOW_TASKS: z.coerce.number().int().min(2).max(1000).default(32),
  WORKER_METRICS_PORT: port.default(9464),
  SDK_METRICS_PORT: port.default(9465),
  TEMPORAL_UI_URL: z.string().url().optional(),
});
