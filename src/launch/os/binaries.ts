/** The binaries the launchers run: each named by an environment variable its set-up script sets. */
import fs from 'node:fs';
import { ConfigError } from '../../core/config';

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
