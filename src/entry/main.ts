/** What every entry point shares: a clear message on bad config, and no orphans. */
import fs from 'node:fs';
import { ConfigError } from '../config';

/**
 * Runs an entry point. A ConfigError prints its message alone; anything else its stack. When
 * started by the embedded launcher (WEBHOOKS_PARENT_PID), the process exits if the launcher
 * is gone, even if it was killed with SIGKILL.
 */
export function runMain(name: string, main: () => Promise<void>): void {
  const parent = Number(process.env.WEBHOOKS_PARENT_PID);
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

/** The file an environment variable names, as a set-up script found or built it; else what to run. */
export function binaryFrom(variable: string, script: string, command: string): string {
  const bin = process.env[variable];
  if (!bin || !fs.existsSync(bin))
    throw new ConfigError(
      `${variable} must name the binary ${script} found or built (got ${bin ?? 'nothing'}); ` +
        `start with \`${command}\`, which does`,
    );
  return bin;
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
