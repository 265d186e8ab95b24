/**
 * The cluster's Temporal server as configured: its ports, its history shards, its config file
 * (one renderer for the cluster on this machine and for docker-compose.yml's `temporal`
 * container, which differ only by where the server runs) and its dynamic config. Starting it,
 * its schema and its namespace: ./temporal-server.ts.
 */
import path from 'node:path';
import { TEMPORAL_EVENTS_CACHE_BYTES_PER_SHARD } from '../../domain/limits';
import { POSTGRES_ROLE, type PostgresOptions } from './postgres';
import type { ClusterTls } from './tls';

/**
 * History shards: fixed when the cluster's database is first made (changing it means a new
 * database). Four, as Temporal's own PostgreSQL sample: enough for several history hosts to share.
 */
export const CLUSTER_HISTORY_SHARDS = 4;
/** The SQL plugin, and the databases with the embedded schema each gets. */
export const SQL_PLUGIN = 'postgres12';
export const DATABASES = [
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
export function temporalServerConfig(placement: ServerPlacement): object {
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
export function clusterPlacement(o: TemporalServerOptions): ServerPlacement {
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
 * `temporal` container, with its certificates from its `tls-temporal` volume (docker/make-tls.sh) and the
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
    // Each shard's events cache holds a fan-out's batch of child starts (src/domain/limits/engines.ts).
    'history.eventsCacheMaxSizeBytes:',
    `  - value: ${TEMPORAL_EVENTS_CACHE_BYTES_PER_SHARD}`,
    ...(fair ? ['matching.enableFairness:', '  - value: true'] : []),
    '',
  ].join('\n');
}
