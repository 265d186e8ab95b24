/**
 * The cluster's Temporal (docs/cluster.md): Temporal server (the version scripts/cluster-binaries.sh
 * builds; the same as docker-compose.yml's) with its four services in one process, its history and
 * its visibility in PostgreSQL, CLUSTER_HISTORY_SHARDS history shards, and no archival. Its schema is
 * created on first start and migrated to the binary's latest on every start, by temporal-sql-tool.
 * The namespace is registered with the dedup window as retention, then the service's search
 * attributes are added, and the server is ready once a visibility query naming them is answered.
 *
 * Closed by default: its frontend takes mutual TLS only (./tls.ts; its services talk to each other
 * on loopback in the clear), and it reaches PostgreSQL with a password (./postgres.ts). Its config
 * file, which holds that password, is readable by its owner only.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { DEDUP_WINDOW } from '../../domain/dedup';
import { TEMPORAL_EVENTS_CACHE_BYTES_PER_SHARD } from '../../domain/limits';
import { SEARCH_ATTRIBUTES } from '../../domain/search-attributes';
import { spawnManaged, waitForPort, type ManagedProcess } from '../os/managed-process';
import { freePorts, portsFree } from '../os/ports';
import { ensureSearchAttributes } from '../../temporal/search-attribute-setup';
import type { Logger } from '../../core/log';
import { POSTGRES_ROLE, psql, type PostgresOptions } from './postgres';
import type { ClusterTls } from './tls';
import { temporalTls } from '../../temporal/client';

/**
 * History shards: fixed when the cluster's database is first made (changing it means a new
 * database). Four, as Temporal's own PostgreSQL sample: enough for several history hosts to share.
 */
export const CLUSTER_HISTORY_SHARDS = 4;
/** The SQL plugin, and the databases with the embedded schema each gets. */
export const SQL_PLUGIN = 'postgres12';
const DATABASES = [
  { name: 'temporal', schema: 'postgresql/v12/temporal' },
  { name: 'temporal_visibility', schema: 'postgresql/v12/visibility' },
] as const;
/** How often the server's services re-read the namespace registry (Temporal's default is 10 s). */
const NAMESPACE_REFRESH = '1s';

/** The ports of the four services: gRPC and membership each, and the frontend's HTTP API. */
export interface TemporalServerPorts {
  frontend: number;
  frontendHttp: number;
  frontendMembership: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
}

/** Temporal's own layout from its frontend port: 7233 gives 7243, 6933, 7234, 6934, 7235, 6935, 7239, 6939. */
export function temporalServerPorts(frontend: number): TemporalServerPorts {
  return {
    frontend,
    frontendHttp: frontend + 10,
    frontendMembership: frontend - 300,
    history: frontend + 1,
    historyMembership: frontend - 299,
    matching: frontend + 2,
    matchingMembership: frontend - 298,
    worker: frontend + 6,
    workerMembership: frontend - 294,
  };
}

export interface TemporalServerOptions {
  serverBin: string;
  sqlToolBin: string;
  postgres: Pick<PostgresOptions, 'binDir' | 'port' | 'dir'> & { password: string };
  /** The frontend's certificates (mutual TLS). */
  tls: ClusterTls;
  /** Its own folder: the config it is started with, and the dynamic config. */
  dir: string;
  ports: TemporalServerPorts;
  namespace: string;
  logFile?: string;
}

/**
 * Where a Temporal server of this service runs, the one thing its config changes by (the cluster
 * on this machine's loopback, or compose's `temporal` container): how it binds, where PostgreSQL
 * is and its password, its certificates, and its dynamic config file.
 */
interface ServerPlacement {
  ports: TemporalServerPorts;
  /** Loopback only (the cluster), or every interface of its container (compose). */
  bind: 'loopback' | 'all';
  /** PostgreSQL's `host:port`. */
  postgresAddress: string;
  /** The `temporal` role's password, or (compose) a template expression that reads it at start. */
  postgresPassword: string;
  tls: Pick<ClusterTls, 'ca' | 'serverCert' | 'serverKey' | 'clientCert' | 'clientKey' | 'serverName'>;
  dynamicConfigFile: string;
}

function datastore(placement: ServerPlacement, database: string, maxConns: number) {
  return {
    sql: {
      pluginName: SQL_PLUGIN,
      databaseName: database,
      connectAddr: placement.postgresAddress,
      connectProtocol: 'tcp',
      user: POSTGRES_ROLE,
      password: placement.postgresPassword,
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  };
}

/** The server's config (JSON, which its YAML loader reads), for the cluster and compose alike. */
function temporalServerConfig(placement: ServerPlacement): object {
  const bind = placement.bind === 'loopback' ? { bindOnLocalHost: true } : { bindOnIP: '0.0.0.0' };
  const rpc = (grpcPort: number, membershipPort: number, extra: object = {}) => ({
    rpc: { grpcPort, membershipPort, ...bind, ...extra },
  });
  const p = placement.ports;
  const tls = placement.tls;
  return {
    log: { stdout: true, level: 'warn' },
    persistence: {
      defaultStore: 'default',
      visibilityStore: 'visibility',
      numHistoryShards: CLUSTER_HISTORY_SHARDS,
      datastores: {
        default: datastore(placement, 'temporal', 20),
        visibility: datastore(placement, 'temporal_visibility', 4),
      },
    },
    global: {
      membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' },
      tls: {
        // Clients (the receivers, the workers, the CLI) must present a certificate the CA signed.
        frontend: {
          server: {
            certFile: tls.serverCert,
            keyFile: tls.serverKey,
            clientCaFiles: [tls.ca],
            requireClientAuth: true,
          },
          client: { serverName: tls.serverName, rootCaFiles: [tls.ca] },
        },
        // Temporal's own system worker is such a client too.
        systemWorker: {
          certFile: tls.clientCert,
          keyFile: tls.clientKey,
          client: { serverName: tls.serverName, rootCaFiles: [tls.ca] },
        },
      },
    },
    services: {
      frontend: rpc(p.frontend, p.frontendMembership, { httpPort: p.frontendHttp }),
      history: rpc(p.history, p.historyMembership),
      matching: rpc(p.matching, p.matchingMembership),
      worker: rpc(p.worker, p.workerMembership),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: {
        active: {
          enabled: true,
          initialFailoverVersion: 1,
          rpcName: 'frontend',
          rpcAddress: `127.0.0.1:${p.frontend}`,
          httpAddress: `127.0.0.1:${p.frontendHttp}`,
        },
      },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    archival: { history: { state: 'disabled' }, visibility: { state: 'disabled' } },
    namespaceDefaults: { archival: { history: { state: 'disabled' }, visibility: { state: 'disabled' } } },
    dynamicConfigClient: { filepath: placement.dynamicConfigFile, pollInterval: '10s' },
  };
}

/** The cluster's placement: this machine's loopback, its PostgreSQL, its certificates. */
function clusterPlacement(o: TemporalServerOptions): ServerPlacement {
  return {
    ports: o.ports,
    bind: 'loopback',
    postgresAddress: `127.0.0.1:${o.postgres.port}`,
    postgresPassword: o.postgres.password,
    tls: o.tls,
    dynamicConfigFile: path.join(o.dir, 'dynamicconfig.yaml'),
  };
}

/**
 * docker-compose.yml's Temporal config (docker/temporal-config.yaml): the cluster's, in its
 * `temporal` container, with its certificates from the `tls` volume (docker/make-tls.sh) and the
 * password read from its environment when the server starts (a template: `# enable-template`).
 */
export function composeTemporalConfig(): string {
  const placement: ServerPlacement = {
    ports: temporalServerPorts(7233),
    bind: 'all',
    postgresAddress: 'postgresql:5432',
    postgresPassword: '__POSTGRES_PASSWORD__',
    tls: {
      ca: '/tls/ca.pem',
      serverCert: '/tls/frontend.pem',
      serverKey: '/tls/frontend-key.pem',
      clientCert: '/tls/client.pem',
      clientKey: '/tls/client-key.pem',
      serverName: COMPOSE_TEMPORAL_NAME,
    },
    dynamicConfigFile: '/etc/webhooks/dynamicconfig.yaml',
  };
  const json = JSON.stringify(temporalServerConfig(placement), null, 2);
  return [
    '# enable-template',
    "# docker-compose.yml's Temporal server (src/launch/servers/temporal-server.ts, composeTemporalConfig, writes this file).",
    json.replaceAll('"__POSTGRES_PASSWORD__"', '{{ env "POSTGRES_PWD" | toJson }}'),
    '',
  ].join('\n');
}

/** The name compose's Temporal frontend is reached and certified by. */
const COMPOSE_TEMPORAL_NAME = 'temporal';

/**
 * Dynamic config: IDs as long as the SQL schema's columns take, a quick namespace registry, events
 * caches that hold a fan-out's batch, and fair dispatch by URL (`fair`: src/launch/servers/dev-servers.ts
 * says why, and why only once the classic task table is empty). docker/temporal-dynamicconfig.yaml
 * is the text with fair dispatch on (test/unit/compose.test.ts).
 */
export function dynamicConfig(fair: boolean): string {
  return [
    'limit.maxIDLength:',
    '  - value: 255',
    'system.namespaceCacheRefreshInterval:',
    `  - value: ${NAMESPACE_REFRESH}`,
    // Each shard's events cache holds a fan-out's batch of child starts (src/domain/limits.ts).
    'history.eventsCacheMaxSizeBytes:',
    `  - value: ${TEMPORAL_EVENTS_CACHE_BYTES_PER_SHARD}`,
    ...(fair ? ['matching.enableFairness:', '  - value: true'] : []),
    '',
  ].join('\n');
}

/** Fair dispatch on, as in the dev server: for good once its classic task table was empty at a start. */
async function fairDispatch(o: TemporalServerOptions): Promise<boolean> {
  const marker = path.join(o.dir, 'fair-dispatch');
  if (fs.existsSync(marker)) return true;
  const classic = Number((await psql(o.postgres, DATABASES[0].name, 'select count(*) from tasks')).trim());
  if (classic > 0) return false;
  fs.writeFileSync(marker, '');
  return true;
}

function sqlTool(o: TemporalServerOptions, database: string, args: string[]): Promise<void> {
  const global = ['--plugin', SQL_PLUGIN, '--endpoint', '127.0.0.1', '--port', String(o.postgres.port)];
  const argv = [...global, '--user', POSTGRES_ROLE, '--database', database, '--quiet', ...args];
  // The password in its environment, not its arguments (which every user of the machine can list).
  const env = { ...process.env, SQL_PASSWORD: o.postgres.password };
  return new Promise((resolve, reject) =>
    execFile(o.sqlToolBin, argv, { encoding: 'utf8', env }, (err, _out, stderr) =>
      err ? reject(new Error(`temporal-sql-tool ${args[0]} ${database}: ${stderr.trim() || err.message}`)) : resolve(),
    ),
  );
}

/** Creates the two databases and their schema when missing, and migrates both to the binary's latest. */
export async function prepareTemporalSchema(o: TemporalServerOptions): Promise<void> {
  for (const db of DATABASES) {
    const exists = (await psql(o.postgres, 'postgres', `select 1 from pg_database where datname = '${db.name}'`))
      .trim()
      .startsWith('1');
    if (!exists) {
      await sqlTool(o, db.name, ['create-database', '--defaultdb', 'postgres']);
      await sqlTool(o, db.name, ['setup-schema', '-v', '0.0']);
    }
    await sqlTool(o, db.name, ['update-schema', '--schema-name', db.schema]);
  }
}

/** Writes its config, starts it and waits for its frontend's port (see `prepareTemporalNamespace` for ready). */
export async function startTemporalServer(o: TemporalServerOptions): Promise<ManagedProcess> {
  const configDir = path.join(o.dir, 'config');
  fs.mkdirSync(configDir, { recursive: true });
  // It holds PostgreSQL's password: its owner's only.
  fs.writeFileSync(
    path.join(configDir, 'cluster.yaml'),
    JSON.stringify(temporalServerConfig(clusterPlacement(o)), null, 2),
    {
      mode: 0o600,
    },
  );
  fs.chmodSync(path.join(configDir, 'cluster.yaml'), 0o600);
  fs.writeFileSync(path.join(o.dir, 'dynamicconfig.yaml'), dynamicConfig(await fairDispatch(o)));
  const args = ['--root', o.dir, '--config', 'config', '--env', 'cluster', '--allow-no-auth', 'start'];
  const proc = spawnManaged('temporal-server', o.serverBin, args, { logFile: o.logFile });
  await waitForPort(o.ports.frontend, proc);
  return proc;
}

/**
 * Registers the namespace (retention: the dedup window) unless it exists, adds the search
 * attributes, and waits until a visibility query that names them is answered: from then on,
 * starts that set them are taken. Retries while the server is still coming up.
 */
export async function prepareTemporalNamespace(
  address: string,
  tls: ClusterTls,
  namespace: string,
  log: Logger,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const connection = await Connection.connect({ address, tls: temporalTls(clusterClientTls(tls)) });
  try {
    for (;;) {
      try {
        await connection.workflowService
          .registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs(DEDUP_WINDOW) })
          .catch((err: Error) => {
            if (!/already exists/i.test(String(err))) throw err;
          });
        await ensureSearchAttributes(connection, namespace, log);
        const query = SEARCH_ATTRIBUTES.map((k) => `${k.name} = 'ready'`).join(' AND ');
        await connection.workflowService.countWorkflowExecutions({ namespace, query });
        return;
      } catch (err) {
        if (Date.now() > deadline)
          throw new Error(`Temporal server at ${address} did not become ready: ${(err as Error).message}`, {
            cause: err,
          });
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  } finally {
    await connection.close();
  }
}

/** The client side of the cluster's TLS as the service's settings say it (TEMPORAL_TLS_*). */
export function clusterClientTls(tls: ClusterTls) {
  return {
    enabled: true,
    caFile: tls.ca,
    certFile: tls.clientCert,
    keyFile: tls.clientKey,
    serverName: tls.serverName,
  };
}

/** A frontend port whose Temporal server ports (above) are all free. */
export async function freeTemporalServerPort(): Promise<number> {
  for (;;) {
    const [frontend] = await freePorts(1);
    if (frontend < 10_300) continue;
    const others = Object.values<number>({ ...temporalServerPorts(frontend) }).filter((p) => p !== frontend);
    if (await portsFree(others)) return frontend;
  }
}
