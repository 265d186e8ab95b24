/**
 * Starts the real servers once for the whole test run: the Temporal dev server and FerretDB,
 * built by scripts/binaries.sh, on free loopback ports with their files in a temporary folder.
 * TEMPORAL_ADDRESS and MONGODB_URI, when set, point the tests at existing servers instead.
 * The workflow code is bundled once here for every worker the tests start.
 */
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFerretDb, startTemporalDevServer, type ManagedProcess } from '../../src/embedded/servers';
import { WORKFLOWS_PATH } from '../../src/worker';
import { freePort } from '../../src/runtime/ports';

declare global {
  var __testServers: { servers: ManagedProcess[]; dir: string } | undefined;
}

/** TEMPORAL_CLI_BIN and FERRETDB_BIN, built by scripts/binaries.sh when the test command did not set them. */
/** The servers' binaries from a set-up script (when `npm test` did not already export them). */
export function ensureBinaries(
  script = 'binaries.sh',
  names = ['TEMPORAL_CLI_BIN', 'FERRETDB_BIN', 'SQLITE_TUNE_BIN'],
): void {
  if (names.every((n) => process.env[n])) return;
  const out = execFileSync(path.resolve(__dirname, '../../scripts', script), {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  for (const line of out.trim().split('\n')) {
    const [name, value] = line.split('=', 2) as [string, string];
    process.env[name] = value;
  }
}

export default async function globalSetup(): Promise<void> {
  ensureBinaries();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhooks-test-'));
  const servers: ManagedProcess[] = [];
  globalThis.__testServers = { servers, dir };

  const starting: Promise<void>[] = [];
  if (!process.env.TEMPORAL_ADDRESS) {
    starting.push(
      (async () => {
        const port = await freePort();
        servers.push(
          await startTemporalDevServer({
            tuneBin: process.env.SQLITE_TUNE_BIN!,
            bin: process.env.TEMPORAL_CLI_BIN!,
            dataDir: dir,
            port,
            namespace: 'default',
            logFile: path.join(dir, 'temporal.log'),
          }),
        );
        process.env.TEMPORAL_ADDRESS = `127.0.0.1:${port}`;
      })(),
    );
  }
  if (!process.env.MONGODB_URI) {
    starting.push(
      (async () => {
        const port = await freePort();
        servers.push(
          await startFerretDb({
            bin: process.env.FERRETDB_BIN!,
            dataDir: dir,
            port,
            logFile: path.join(dir, 'ferretdb.log'),
          }),
        );
        process.env.MONGODB_URI = `mongodb://127.0.0.1:${port}/`;
        process.env.FERRETDB_SQLITE_DIR = path.join(dir, 'ferretdb');
      })(),
    );
  }
  const bundle = path.join(dir, 'workflow-bundle.js');
  starting.push(
    bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('WARN') }).then(({ code }) =>
      fs.writeFileSync(bundle, code),
    ),
  );
  await Promise.all(starting);
  process.env.TEST_WORKFLOW_BUNDLE = bundle;
}
