/**
 * The embedded launcher: starts the Temporal dev server and FerretDB (unless TEMPORAL_ADDRESS /
 * MONGODB_URI point elsewhere), then the receiver and the worker as their own processes, and
 * stops them all on Ctrl-C. A receiver or worker that dies is restarted after a second.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from '../core/config';
import { supervise } from '../launch/os/supervisor';
import { EMBEDDED_RETENTION } from '../launch/servers/dev-servers';
import { waitForPort } from '../launch/os/managed-process';
import { createLogger, type Logger } from '../core/log';
import { binariesFromEnv, startBackEnds, type BackEnds } from '../launch/back-ends';
import { embeddedPortClaims, refuseTakenPorts } from '../launch/ports-in-use';
import { namespaceSupport } from '../launch/servers/dev-namespace';
import { closeDataFolder } from '../launch/os/data-folder';
import { adminTokenLines, onShutdown, runMain, temporalLines, webUiKeyLines } from './main';

runMain('embedded', async () => {
  const config = loadConfig();
  const log = createLogger('embedded', config.logLevel, { format: config.logFormat });
  // Before anything is started: every port it will listen on is free (else which, and what holds it),
  // and what the servers and processes write is theirs alone.
  await refuseTakenPorts(embeddedPortClaims(config, namespaceSupport().ok));
  closeDataFolder(config.dataDir);
  const logDir = path.join(config.dataDir, 'logs');
  fs.mkdirSync(logDir, { recursive: true });
  const started: Started = { services: [] };
  const stopAll = async () => {
    await Promise.all(started.services.map((s) => s.stop()));
    const backEnds = started.backEnds;
    started.backEnds = undefined;
    await backEnds?.stop();
  };
  onShutdown(async () => {
    log.info('stopping');
    await stopAll();
  });
  try {
    await startAll(config, log, logDir, started);
  } catch (err) {
    // A step that fails leaves nothing running: what was started is stopped before the launcher exits.
    log.error('could not start; stopping what was started');
    await stopAll();
    throw err;
  }
});

/** What the launcher has started, stopped on Ctrl-C or when a later step fails. */
interface Started {
  backEnds?: BackEnds;
  services: Array<{ stop(): Promise<void> }>;
}

async function startAll(config: Config, log: Logger, logDir: string, started: Started): Promise<void> {
  if (config.temporal.tls.enabled && !config.temporal.address)
    throw new ConfigError(
      'TEMPORAL_TLS_* apply to a Temporal you run (TEMPORAL_ADDRESS); the embedded one takes no TLS',
    );
  // TEMPORAL_ADDRESS and MONGODB_URI, when set, win: those back-ends are used, not started.
  const binary = binariesFromEnv('npm start');
  const { temporalPort, temporalUiPort, temporalMetricsPort } = config.embedded;
  const backEnds = await startBackEnds({
    temporal: {
      address: config.temporal.address,
      binary,
      dataDir: config.dataDir,
      logDir,
      port: temporalPort,
      uiPort: temporalUiPort,
      metricsPort: temporalMetricsPort,
      namespace: config.temporal.namespace,
      retention: EMBEDDED_RETENTION,
      // The embedded Web UI asks for it (src/launch/servers/dev-namespace.ts).
      uiPassword: config.adminToken,
    },
    mongodb: { uri: config.mongodbUri, binary, dataDir: config.dataDir, logDir },
    log,
  });
  started.backEnds = backEnds;
  const { temporal, mongodb } = backEnds;
  if (temporal.openToLocalUsers)
    log.warn('the Temporal dev server is open to every local user: no network namespace could be made here', {
      why: temporal.openToLocalUsers,
    });
  const webUiUrl = temporal.webUiUrl;
  const webUi = webUiUrl
    ? `${webUiUrl}/namespaces/${config.temporal.namespace}/workflows`
    : (config.temporalUiUrl ?? 'the Web UI of your Temporal cluster');

  const env = {
    ...process.env,
    TEMPORAL_ADDRESS: temporal.address,
    MONGODB_URI: mongodb.uri,
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
  started.services.push(worker, receiver);
  await waitForPort(config.port, receiver.current());

  process.stdout.write(
    [
      '',
      `  Service (webhooks and API): ${config.baseUrl}`,
      `  Temporal Web UI:            ${webUi}`,
      ...temporalLines(temporal),
      ...adminTokenLines(config),
      ...webUiKeyLines(config),
      `  Metrics and health:         http://localhost:${config.receiverMetricsPort}/metrics, /healthz (receiver);` +
        ` http://localhost:${config.workerMetricsPort}/metrics, /healthz (worker)`,
      `  Data folder:                ${config.dataDir}   logs: ${logDir}`,
      '  Ctrl-C stops everything.',
      '',
    ].join('\n') + '\n',
  );
}
