/**
 * The embedded launcher: starts the Temporal dev server and FerretDB (unless TEMPORAL_ADDRESS /
 * MONGODB_URI point elsewhere), then the receiver and the worker as their own processes, and
 * stops them all on Ctrl-C. A receiver or worker that dies is restarted after a second.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from '../config';
import { supervise } from '../embedded/supervisor';
import {
  EMBEDDED_DATABASE,
  EMBEDDED_RETENTION,
  startFerretDb,
  startTemporalDevServer,
  waitForPort,
  type ManagedProcess,
} from '../embedded/servers';
import { createLogger, type Logger } from '../log';
import { prepareEmbeddedStore } from '../embedded/ferretdb-index';
import { adminTokenLines, binaryFrom, onShutdown, runMain } from './main';
import { webUiCodecEndpoint } from '../codec-routes';

const binary = (variable: string) => binaryFrom(variable, 'scripts/binaries.sh', 'npm start');

runMain('embedded', async () => {
  const config = loadConfig();
  const log = createLogger('embedded', config.logLevel, { format: config.logFormat });
  const logDir = path.join(config.dataDir, 'logs');
  fs.mkdirSync(logDir, { recursive: true });
  const servers: ManagedProcess[] = [];
  const services: Array<{ stop(): Promise<void> }> = [];
  const stopAll = async () => {
    await Promise.all(services.map((s) => s.stop()));
    for (const server of servers.reverse()) await server.stop();
  };
  onShutdown(async () => {
    log.info('stopping');
    await stopAll();
  });
  try {
    await startAll(config, log, logDir, servers, services);
  } catch (err) {
    // A step that fails leaves nothing running: what was started is stopped before the launcher exits.
    log.error('could not start; stopping what was started');
    await stopAll();
    throw err;
  }
});

async function startAll(
  config: Config,
  log: Logger,
  logDir: string,
  servers: ManagedProcess[],
  services: Array<{ stop(): Promise<void> }>,
): Promise<void> {
  if (config.temporal.tls.enabled && !config.temporal.address)
    throw new ConfigError(
      'TEMPORAL_TLS_* apply to a Temporal you run (TEMPORAL_ADDRESS); the embedded one takes no TLS',
    );
  let temporalAddress = config.temporal.address;
  let webUi = config.temporalUiUrl ?? 'the Web UI of your Temporal cluster';
  let webUiUrl: string | null = null;
  if (!temporalAddress) {
    const { temporalPort, temporalUiPort } = config.embedded;
    log.info('starting the Temporal dev server');
    servers.push(
      await startTemporalDevServer({
        tuneBin: binary('SQLITE_TUNE_BIN'),
        bin: binary('TEMPORAL_CLI_BIN'),
        dataDir: config.dataDir,
        port: temporalPort,
        uiPort: temporalUiPort,
        namespace: config.temporal.namespace,
        retention: EMBEDDED_RETENTION,
        uiCodecEndpoint: webUiCodecEndpoint(config.baseUrl, config.adminToken),
        logFile: path.join(logDir, 'temporal.log'),
      }),
    );
    temporalAddress = `127.0.0.1:${temporalPort}`;
    webUiUrl = `http://localhost:${temporalUiPort}`;
    webUi = `${webUiUrl}/namespaces/${config.temporal.namespace}/workflows`;
  }
  let mongodbUri = config.mongodbUri;
  if (!mongodbUri) {
    log.info('starting FerretDB (SQLite)');
    servers.push(
      await startFerretDb({
        bin: binary('FERRETDB_BIN'),
        dataDir: config.dataDir,
        port: config.embedded.mongodbPort,
        logFile: path.join(logDir, 'ferretdb.log'),
      }),
    );
    mongodbUri = `mongodb://127.0.0.1:${config.embedded.mongodbPort}/${EMBEDDED_DATABASE}`;
    // Collections made, then the `_id` index FerretDB's own lookups can use (docs/storage.md).
    await prepareEmbeddedStore(mongodbUri, {
      indexBin: binary('SQLITE_TUNE_BIN'),
      dataDir: config.dataDir,
      dbName: EMBEDDED_DATABASE,
    });
  }

  const env = {
    ...process.env,
    TEMPORAL_ADDRESS: temporalAddress,
    MONGODB_URI: mongodbUri,
    DATA_DIR: config.dataDir,
    // The receiver's and worker's stderr reach the terminal through the launcher: they log as it does.
    LOG_FORMAT: config.logFormat,
    ...(webUiUrl && !config.temporalUiUrl ? { TEMPORAL_UI_URL: webUiUrl } : {}),
    WEBHOOKS_PARENT_PID: String(process.pid),
  };
  const start = (name: 'worker' | 'receiver') =>
    supervise(name, process.execPath, [path.join(__dirname, `${name}${path.extname(__filename)}`)], env, log);
  const worker = start('worker');
  const receiver = start('receiver');
  services.push(worker, receiver);
  await waitForPort(config.port, receiver.current());

  process.stdout.write(
    [
      '',
      `  Service (webhooks and API): ${config.baseUrl}`,
      `  Temporal Web UI:            ${webUi}`,
      ...adminTokenLines(config),
      `  Metrics and health:         http://localhost:${config.receiverMetricsPort}/metrics, /healthz (receiver);` +
        ` http://localhost:${config.workerMetricsPort}/metrics (worker)`,
      `  Data folder:                ${config.dataDir}   logs: ${logDir}`,
      '  Ctrl-C stops everything.',
      '',
    ].join('\n') + '\n',
  );
}
