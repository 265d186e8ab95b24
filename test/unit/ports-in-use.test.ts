/**
 * Which ports the embedded launcher checks before it starts anything (src/launch/ports-in-use.ts),
 * and two settings naming one port refused without listening on it. A port another process holds
 * is tested against the real launcher in test/start.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/core/config';
import { embeddedPortClaims, refuseTakenPorts } from '../../src/launch/ports-in-use';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ports-in-use-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
const settingsOf = (env: NodeJS.ProcessEnv, inNamespace: boolean) =>
  embeddedPortClaims(loadConfig({ DATA_DIR: dataDir, ...env }), inNamespace).map((c) => `${c.setting}=${c.port}`);

test("the receiver's and worker's ports, and the dev server's Web UI; its gRPC port too without a namespace", () => {
  const always = ['PORT=3000', 'RECEIVER_METRICS_PORT=9463', 'WORKER_METRICS_PORT=9464', 'SDK_METRICS_PORT=9465'];
  expect(settingsOf({}, true)).toEqual([...always, 'EMBEDDED_TEMPORAL_UI_PORT=8233']);
  expect(settingsOf({ EMBEDDED_TEMPORAL_METRICS_PORT: '9090' }, false)).toEqual([
    ...always,
    'EMBEDDED_TEMPORAL_UI_PORT=8233',
    'EMBEDDED_TEMPORAL_PORT=7233',
    'EMBEDDED_TEMPORAL_METRICS_PORT=9090',
  ]);
});

test("none of the dev server's with a Temporal of one's own, and no port that is 0", () => {
  const env = { TEMPORAL_ADDRESS: 'temporal:7233', RECEIVER_METRICS_PORT: '0', WORKER_METRICS_PORT: '0' };
  expect(settingsOf(env, false)).toEqual(['PORT=3000']);
});

test('two settings naming one port are refused, both named', async () => {
  const claims = embeddedPortClaims(loadConfig({ DATA_DIR: dataDir, RECEIVER_METRICS_PORT: '3000' }), true);
  await expect(refuseTakenPorts(claims)).rejects.toThrow(
    'PORT, RECEIVER_METRICS_PORT: both are 3000; give each a port of its own',
  );
});
