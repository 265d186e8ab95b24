/**
 * Starts the real servers once for the whole test run, as the embedded launcher does
 * (src/launch/back-ends.ts): the Temporal dev server (headless, in a network namespace of its own,
 * reached through its unix socket: TEMPORAL_ADDRESS is `unix:///…`, so every test connects through
 * the bridge the launcher uses) and FerretDB with its store prepared, built by scripts/binaries.sh,
 * with their files in a temporary folder. TEMPORAL_ADDRESS and MONGODB_URI, when set, point the
 * tests at existing servers instead. Each test keeps its own database (test/support/stack.ts). The
 * workflow code is bundled once here for every worker the tests start.
 */
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WORKFLOW_BUNDLE_OPTIONS } from '../../src/runtime/worker';
import { freePorts } from '../../src/launch/os/ports';
import { binariesFromEnv, startBackEnds } from '../../src/launch/back-ends';

declare global {
  var __testServers: { servers: Array<{ stop(): Promise<void> }>; dir: string } | undefined;
}

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
  const [temporalPort] = await freePorts(1);
  const binary = binariesFromEnv('npm test');
  const embedded = { binary, dataDir: dir, logDir: dir };
  const bundle = path.join(dir, 'workflow-bundle.js');
  const [started, bundled] = await Promise.allSettled([
    startBackEnds({
      temporal: { ...embedded, address: process.env.TEMPORAL_ADDRESS, port: temporalPort, namespace: 'default' },
      mongodb: { ...embedded, uri: process.env.MONGODB_URI },
    }),
    bundleWorkflowCode({ ...WORKFLOW_BUNDLE_OPTIONS, logger: new DefaultLogger('WARN') }).then(({ code }) =>
      fs.writeFileSync(bundle, code),
    ),
  ]);
  if (started.status === 'rejected') throw started.reason;
  const { temporal, mongodb, stop } = started.value;
  if (bundled.status === 'rejected') {
    await stop();
    throw bundled.reason;
  }
  globalThis.__testServers = { servers: [{ stop }], dir };
  process.env.TEMPORAL_ADDRESS = temporal.address;
  process.env.MONGODB_URI = mongodb.uri;
  if (mongodb.sqliteDir) process.env.FERRETDB_SQLITE_DIR = mongodb.sqliteDir;
  process.env.TEST_WORKFLOW_BUNDLE = bundle;
}
