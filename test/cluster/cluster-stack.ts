/**
 * The production-shaped cluster of `npm run start:cluster` (src/launch/cluster.ts), on free
 * loopback ports in a folder of its own: PostgreSQL, Temporal server, FerretDB, 2 receivers and
 * 2 workers (restarted by their supervisors when killed), nginx in front. Each process logs to
 * its own file there; CLUSTER_KEEP_DATA=1 keeps the folder for a post-mortem.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Cluster } from '../../src/launch/cluster';
import { temporalServerPorts, type TemporalServerPorts } from '../../src/launch/servers/temporal-server-config';
import { loadConfig } from '../../src/core/config';
import { DEFAULT_MAX_BODY_BYTES } from '../../src/domain/limits';
import { createLogger } from '../../src/core/log';
import { stackApi, stackForTests, type StackApi } from '../faults/stack-api';
import { freePorts } from '../../src/launch/os/ports';
import { entryPoint } from '../../src/launch/os/child-processes';

/** The entry's read timeout of management requests in the cluster tests (API_READ_TIMEOUT_S otherwise). */
export const API_READ_TIMEOUT_IN_TESTS_S = 10;

export interface ClusterStack extends StackApi {
  cluster: Cluster;
  /** The entry (nginx): what senders use. */
  baseUrl: string;
  /** Each receiver's own address, bypassing the entry. */
  receiverUrls: string[];
  /** Each receiver's metrics port (GET /metrics, /healthz). */
  receiverMetricsUrls: string[];
  dataDir: string;
  adminToken: string;
  postgresPort: number;
  /** Everything every process has logged so far. */
  logs(): string;
  close(): Promise<void>;
}

/** The cluster started before the tests of the file this is called in, and stopped after them. */
export const useClusterStack = (): ClusterStack => stackForTests(startClusterStack);

export async function startClusterStack(): Promise<ClusterStack> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhooks-cluster-'));
  // PostgreSQL runs as `postgres` when the tests run as root: it must be able to enter this folder.
  fs.chmodSync(dataDir, 0o755);
  const logDir = path.join(dataDir, 'logs');
  fs.mkdirSync(logDir);
  const [port, r1, r2, m1, m2, w1, s1, w2, s2, postgresPort, ...t] = await freePorts(19);
  const temporalPorts: TemporalServerPorts = {
    ...temporalServerPorts(t[0]),
    frontendHttp: t[1],
    frontendMembership: t[2],
    history: t[3],
    historyMembership: t[4],
    matching: t[5],
    matchingMembership: t[6],
    worker: t[7],
    workerMembership: t[8],
  };
  const cluster = new Cluster({
    dataDir,
    logDir,
    port,
    receiverPorts: [r1, r2],
    receiverMetricsPorts: [m1, m2],
    workerMetricsPorts: [
      { worker: w1, sdk: s1 },
      { worker: w2, sdk: s2 },
    ],
    postgresPort,
    temporalPorts,
    namespace: 'default',
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
    bins: {
      temporalServer: process.env.TEMPORAL_SERVER_BIN!,
      temporalSqlTool: process.env.TEMPORAL_SQL_TOOL_BIN!,
      postgres: path.dirname(process.env.POSTGRES_BIN!),
      nginx: process.env.NGINX_BIN!,
      ferretdb: process.env.FERRETDB_BIN!,
      sqliteTune: process.env.SQLITE_TUNE_BIN!,
    },
    env: { ...process.env, LOG_LEVEL: 'warn', LOG_FORMAT: 'json', TEMPORAL_START_TIMEOUT_MS: '3000' },
    // Short enough that a test sees a stalled receiver's management request answered 504.
    apiReadTimeoutSeconds: API_READ_TIMEOUT_IN_TESTS_S,
    log: createLogger('cluster-test', 'warn', { format: 'json' }),
    serviceLogFiles: true,
    entryPoint,
  });
  const logs = () =>
    fs
      .readdirSync(logDir)
      .map((f) => `--- ${f}\n${fs.readFileSync(path.join(logDir, f), 'utf8')}`)
      .join('\n');
  const close = async () => {
    await cluster.stop();
    if (process.env.CLUSTER_KEEP_DATA !== '1') fs.rmSync(dataDir, { recursive: true, force: true });
  };
  // The admin token and secrets key made once, before the four services read them at the same moment.
  loadConfig({ DATA_DIR: dataDir });
  try {
    await cluster.start();
  } catch (err) {
    const tails = logs().slice(-6000);
    await close();
    throw new Error(`the cluster did not start: ${(err as Error).message}\n${tails}`, { cause: err });
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  const adminToken = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
  return {
    ...stackApi(baseUrl, adminToken),
    adminToken,
    cluster,
    baseUrl,
    receiverUrls: [r1, r2].map((p) => `http://127.0.0.1:${p}`),
    receiverMetricsUrls: [m1, m2].map((p) => `http://127.0.0.1:${p}`),
    dataDir,
    postgresPort,
    logs,
    close,
  };
}
