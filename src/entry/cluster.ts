/**
 * The cluster launcher (`npm run start:cluster`, docs/cluster.md): production's shape on one
 * machine. PostgreSQL, Temporal server on it, FerretDB, CLUSTER_RECEIVERS receivers and
 * CLUSTER_WORKERS workers, and nginx in front of the receivers on PORT; prints where everything
 * is and stops it all on Ctrl-C. Its binaries come from scripts/binaries.sh and
 * scripts/cluster-binaries.sh, which `npm run start:cluster` runs first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Cluster, clusterBaseUrl, type ClusterBinaries } from '../launch/cluster';
import { CLUSTER_HISTORY_SHARDS, temporalServerPorts } from '../launch/servers/temporal-server-config';
import { ConfigError, loadConfig } from '../core/config';
import { createLogger } from '../core/log';
import { closeDataFolder } from '../launch/os/data-folder';
import { adminTokenLines, onShutdown, runMain, webUiKeyLines } from './main';
import { binaryFrom } from '../launch/os/binaries';

const binary = (variable: string) =>
  binaryFrom(variable, 'scripts/binaries.sh or scripts/cluster-binaries.sh', 'npm run start:cluster');

runMain('cluster', async () => {
  const config = loadConfig();
  if (config.temporal.address || config.mongodbUri)
    throw new ConfigError(
      'the cluster runs its own Temporal server and FerretDB: unset TEMPORAL_ADDRESS and MONGODB_URI ' +
        '(to use servers you run, start the receiver and worker themselves: docs/operations.md)',
    );
  // TLS at the entry, always: a BASE_URL of `http://` is refused before anything starts.
  const base = clusterBaseUrl(process.env.BASE_URL, config.port, true);
  const log = createLogger('cluster', config.logLevel, { format: config.logFormat });
  // As root, PostgreSQL runs as `postgres`, which passes through the data folder to its own.
  closeDataFolder(config.dataDir, { othersPassThrough: process.getuid?.() === 0 });
  const logDir = path.join(config.dataDir, 'logs');
  fs.mkdirSync(logDir, { recursive: true });
  const bins: ClusterBinaries = {
    temporalServer: binary('TEMPORAL_SERVER_BIN'),
    temporalSqlTool: binary('TEMPORAL_SQL_TOOL_BIN'),
    postgres: path.dirname(binary('POSTGRES_BIN')),
    nginx: binary('NGINX_BIN'),
    ferretdb: binary('FERRETDB_BIN'),
    sqliteTune: binary('SQLITE_TUNE_BIN'),
  };
  const { receivers, workers, postgresPort } = config.cluster;
  const cluster = new Cluster({
    dataDir: config.dataDir,
    logDir,
    port: config.port,
    receiverPorts: Array.from({ length: receivers }, (_, i) => config.port + 1 + i),
    // Down from RECEIVER_METRICS_PORT (the workers' go up from WORKER_METRICS_PORT).
    receiverMetricsPorts: Array.from({ length: receivers }, (_, i) => config.receiverMetricsPort - i),
    workerMetricsPorts: Array.from({ length: workers }, (_, i) => ({
      worker: config.workerMetricsPort + 2 * i,
      sdk: config.sdkMetricsPort + 2 * i,
    })),
    postgresPort,
    temporalPorts: temporalServerPorts(config.embedded.temporalPort),
    namespace: config.temporal.namespace,
    maxBodyBytes: config.maxBodyBytes,
    // TLS at the entry: the certificate given, else a self-signed one of its own (not the internal CA's).
    edgeTls: config.edgeTls ?? 'made',
    bins,
    // The receivers' and workers' stderr reach the terminal through the launcher: they log as it does.
    env: { ...process.env, LOG_FORMAT: config.logFormat },
    log,
  });
  onShutdown(async () => {
    log.info('stopping');
    await cluster.stop();
  });
  await cluster.start();
  const { tls } = cluster;
  const passwordFile = path.join(config.dataDir, 'postgres-password');
  const edge = await cluster.edgeTls();

  // On loopback only (HOST), behind the entry.
  const receiverList = Array.from({ length: receivers }, (_, i) => `127.0.0.1:${config.port + 1 + i}`).join(', ');
  process.stdout.write(
    [
      '',
      `  Service (webhooks and API): ${base}   (nginx, in front of the receivers)`,
      config.edgeTls
        ? `  TLS:                        ${config.edgeTls.certFile}`
        : `  TLS:                        a self-signed certificate: curl --cacert ${edge?.certFile} ${base}/`,
      `  Receivers:                  ${receiverList}`,
      `  Workers:                    ${workers}`,
      `  Temporal server:            ${cluster.temporalAddress}   (PostgreSQL, ${CLUSTER_HISTORY_SHARDS} history shards;` +
        ' mutual TLS only)',
      `                              temporal workflow list --address ${cluster.temporalAddress}` +
        ` --tls-ca-path ${tls.ca} --tls-cert-path ${tls.clientCert} --tls-key-path ${tls.clientKey}` +
        ` --tls-server-name ${tls.serverName}`,
      `  PostgreSQL:                 127.0.0.1:${postgresPort}   user temporal, password in ${passwordFile}`,
      `  Metrics and health:         receivers localhost:${config.receiverMetricsPort} and down;` +
        ` workers localhost:${config.workerMetricsPort} and up, by 2`,
      `  FerretDB (MongoDB):         ${cluster.mongodbUri}`,
      ...adminTokenLines(config),
      ...webUiKeyLines(config),
      `  Data folder:                ${config.dataDir}   logs: ${logDir}`,
      '  Ctrl-C stops everything.',
      '',
    ].join('\n') + '\n',
  );
});
