/**
 * The ports a launcher is about to listen on, checked before anything is started: a port another
 * process holds (a Temporal dev server of one's own on 7233 is common) would otherwise let the
 * launcher's wait succeed against the wrong server while the process meant to bind it exits and is
 * restarted over and over. A taken port stops the start with a ConfigError naming the setting, the
 * port and, when it can be read, the process that holds it.
 */
import { ConfigError, type Config } from '../core/config';
import { listenProblem, portHolder } from './os/port-holder';

/** A port the launcher's processes will listen on, by the setting that names it. */
export interface PortClaim {
  setting: string;
  port: number;
  /** The address it is listened on; undefined: every address. */
  host?: string;
  /** Who listens on it, in the operator's words. */
  what: string;
}

/**
 * What `npm start` listens on: the receiver's port and its metrics port, the worker's metrics
 * ports, and the embedded Temporal dev server's Web UI (its gRPC and metrics ports too when it
 * runs without a network namespace of its own: `inNamespace` false). FerretDB listens on a unix
 * socket of the data folder, no port. 0 (a port of the system's choosing, or none) is never taken.
 */
export function embeddedPortClaims(config: Config, inNamespace: boolean): PortClaim[] {
  const claims: PortClaim[] = [
    { setting: 'PORT', port: config.port, host: config.host, what: 'the receiver (webhooks and API)' },
    {
      setting: 'RECEIVER_METRICS_PORT',
      port: config.receiverMetricsPort,
      host: config.metricsHost,
      what: "the receiver's metrics and health",
    },
    {
      setting: 'WORKER_METRICS_PORT',
      port: config.workerMetricsPort,
      host: config.metricsHost,
      what: "the worker's metrics",
    },
  ];
  if (config.workerMetricsPort > 0)
    claims.push({
      setting: 'SDK_METRICS_PORT',
      port: config.sdkMetricsPort,
      host: '127.0.0.1',
      what: "the Temporal SDK's exporter",
    });
  if (!config.temporal.address) {
    const { temporalPort, temporalUiPort, temporalMetricsPort } = config.embedded;
    const devServer = 'the embedded Temporal dev server';
    claims.push({ setting: 'EMBEDDED_TEMPORAL_UI_PORT', port: temporalUiPort, host: '127.0.0.1', what: 'its Web UI' });
    if (!inNamespace) {
      claims.push({ setting: 'EMBEDDED_TEMPORAL_PORT', port: temporalPort, host: '127.0.0.1', what: devServer });
      if (temporalMetricsPort !== undefined)
        claims.push({
          setting: 'EMBEDDED_TEMPORAL_METRICS_PORT',
          port: temporalMetricsPort,
          host: '127.0.0.1',
          what: `${devServer}'s metrics`,
        });
    }
  }
  return claims.filter((c) => c.port > 0);
}

/** Two settings naming the same port (the second cannot listen once the first does). */
function sharedPorts(claims: PortClaim[]): string[] {
  const bySetting = new Map<number, string>();
  const lines: string[] = [];
  for (const c of claims) {
    const first = bySetting.get(c.port);
    if (first) lines.push(`  ${first}, ${c.setting}: both are ${c.port}; give each a port of its own`);
    else bySetting.set(c.port, c.setting);
  }
  return lines;
}

/** Refuses the start, naming every setting whose port is shared or taken, before anything is started. */
export async function refuseTakenPorts(claims: PortClaim[]): Promise<void> {
  const lines = sharedPorts(claims);
  for (const c of lines.length ? [] : claims) {
    const problem = await listenProblem(c.port, c.host);
    if (problem === null) continue;
    const holder = portHolder(c.port);
    const by = holder ? ` by ${holder}` : '';
    const why = problem === 'EADDRINUSE' ? `is in use${by}` : `cannot be listened on (${problem})`;
    lines.push(`  ${c.setting}: port ${c.port} (${c.what}) ${why}; stop that, or set ${c.setting} to a free port`);
  }
  if (lines.length) throw new ConfigError(`Ports:\n${lines.join('\n')}`);
}
