/** What every entry point shares: a clear message on bad config, and no orphans. */
import path from 'node:path';
import { webUiCodecBase, webUiCodecEndpoint } from '../codec/routes';
import { ConfigError, type Config } from '../core/config';
import { unknownSettingWarnings } from '../core/settings/unknown';

/**
 * Runs an entry point. A ConfigError prints its message alone; anything else its stack. When
 * started by the embedded launcher (WEBHOOKS_PARENT_PID), the process exits if the launcher
 * is gone, even if it was killed with SIGKILL.
 */
export function runMain(name: string, main: () => Promise<void>): void {
  const parent = Number(process.env.WEBHOOKS_PARENT_PID);
  // A variable that looks like a setting and is not one, said once: by the launcher, not its children.
  if (!parent) for (const warning of unknownSettingWarnings(process.env)) process.stderr.write(`${name}: ${warning}\n`);
  if (parent) {
    setInterval(() => {
      try {
        process.kill(parent, 0);
      } catch {
        process.exit(1);
      }
    }, 1000).unref();
  }
  main().catch((err: unknown) => {
    process.stderr.write(
      `${name}: ${err instanceof ConfigError ? err.message : ((err as Error)?.stack ?? String(err))}\n`,
    );
    process.exit(1);
  });
}

/** Calls `stop` once on SIGINT or SIGTERM, then exits. */
export function onShutdown(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = () => {
    if (stopping) return;
    stopping = true;
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}

/**
 * The launchers' lines about the admin token: the token itself when the launcher made it (it is in
 * the data folder too), never one given in ADMIN_TOKEN (whoever set it has it; a terminal's
 * scrollback or a log collector should not).
 */
export function adminTokenLines(config: Pick<Config, 'adminToken' | 'adminTokenFromEnv' | 'dataDir'>): string[] {
  if (config.adminTokenFromEnv) return ['  Admin token:                (the one in ADMIN_TOKEN)'];
  return [
    `  Admin token:                ${config.adminToken}`,
    `                              (also in ${path.join(config.dataDir, 'admin-token')})`,
  ];
}

/**
 * The launchers' lines about the Web UI's codec endpoint (decode only, on the receiver's metrics
 * port: src/codec/routes.ts), to paste into the Web UI's Codec Server setting once per browser;
 * like the admin token, its key is printed only when the launcher made it.
 */
export function webUiKeyLines(
  config: Pick<Config, 'receiverMetricsPort' | 'metricsHost' | 'webUiKey' | 'webUiKeyFromEnv' | 'dataDir'>,
): string[] {
  if (!config.receiverMetricsPort)
    return ['  Web UI codec endpoint:      none (RECEIVER_METRICS_PORT is 0: the Web UI shows ciphertext)'];
  const endpoint = config.webUiKeyFromEnv ? `${webUiCodecBase(config)}/<WEB_UI_KEY>` : webUiCodecEndpoint(config);
  return [
    `  Web UI codec endpoint:      ${endpoint}`,
    `                              (Web UI → Codec Server, once per browser; key in ${
      config.webUiKeyFromEnv ? 'WEB_UI_KEY' : path.join(config.dataDir, 'web-ui-key')
    })`,
  ];
}

/**
 * What the embedded launcher's banner says of its Temporal dev server: who can reach it
 * (src/launch/servers/dev-namespace.ts; docs/security.md, a local user). Nothing for a Temporal
 * given in TEMPORAL_ADDRESS.
 */
export function temporalLines(temporal: {
  embedded: boolean;
  address: string;
  webUiUrl: string | null;
  openToLocalUsers: string | null;
}): string[] {
  if (!temporal.embedded) return [];
  if (temporal.openToLocalUsers)
    return [
      `  WARNING:                    Temporal is open to every local user (${temporal.openToLocalUsers});`,
      '                              use TEMPORAL_ADDRESS with TEMPORAL_TLS_* on a shared machine',
    ];
  return [
    `  Temporal (this user only):  ${temporal.address}   (temporal … --address ${temporal.address})`,
    ...(temporal.webUiUrl ? ['                              Web UI: any user name, the admin token as password'] : []),
  ];
}
