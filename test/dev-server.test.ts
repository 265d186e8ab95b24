/**
 * The embedded Temporal dev server (src/launch/servers/dev-servers.ts) reads search attributes from
 * its caches, not from SQLite at every use: a store made before one of the service's search
 * attributes existed gets it at the next start, usable at once.
 */
import { Client, Connection } from '@temporalio/client';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { binariesFromEnv } from '../src/launch/back-ends';
import { freePorts } from '../src/launch/os/ports';
import { spawnManaged, waitForPort } from '../src/launch/os/managed-process';
import { waitFor } from '../src/launch/os/wait';
import { startTemporalDevServer } from '../src/launch/servers/dev-servers';
import { ROBOT_ID, SEARCH_ATTRIBUTES } from '../src/domain/search-attributes';

const binary = binariesFromEnv('npm test');

it("creates the service's search attributes a store lacks, and they are usable at once", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-server-'));
  const [port] = await freePorts(1);
  // A store of the dev server as the CLI makes it: none of the service's search attributes.
  const bare = spawnManaged('temporal', binary('TEMPORAL_CLI_BIN'), [
    'server',
    'start-dev',
    '--db-filename',
    path.join(dataDir, 'temporal.db'),
    '--port',
    String(port),
    '--headless',
    '--log-level',
    'error',
  ]);
  await waitForPort(port, bare);
  await bare.stop();

  const logFile = path.join(dataDir, 'temporal.log');
  const server = await startTemporalDevServer({
    bin: binary('TEMPORAL_CLI_BIN'),
    tuneBin: binary('SQLITE_TUNE_BIN'),
    dataDir,
    port,
    namespace: 'default',
    logFile,
  });
  const connection = await Connection.connect({ address: `127.0.0.1:${port}` });
  try {
    expect(fs.readFileSync(logFile, 'utf8')).toContain(
      `search attributes created: ${SEARCH_ATTRIBUTES.map((k) => k.name).join(', ')}`,
    );
    // Its caches were read before the creation (the list that found them missing): without the
    // second start, a start or a query naming them is refused for up to a minute.
    const client = new Client({ connection });
    await client.workflow.start('nothing', {
      taskQueue: 'nobody-polls',
      workflowId: 'with-search-attributes',
      typedSearchAttributes: [{ key: ROBOT_ID, value: 'robot-1' }],
    });
    const listed = async () => {
      const ids: string[] = [];
      for await (const w of client.workflow.list({ query: `RobotId = "robot-1"` })) ids.push(w.workflowId);
      return ids;
    };
    expect(await waitFor(listed, (ids) => ids.length === 1, 10_000)).toEqual(['with-search-attributes']);
  } finally {
    await connection.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
