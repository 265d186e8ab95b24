/**
 * `npm start` as it begins: a second set-up with nothing changed builds nothing (scripts/build.sh:
 * each step says it is up to date, and no file of dist/ or web/dist/ is written), a change is built
 * and a removed source's output goes with it; and a port another process holds is named, with
 * what holds it, before the launcher starts anything (src/launch/ports-in-use.ts).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePorts } from '../src/launch/os/ports';
import { exited, startProcess } from '../src/launch/os/child-processes';

const root = path.join(__dirname, '..');
const run = promisify(execFile);

/** Runs a set-up script from the package's root; resolves with what it printed on stderr. */
async function setUp(script: string): Promise<string> {
  const { stderr } = await run(path.join(root, script), [], { cwd: root, maxBuffer: 64 << 20 });
  return stderr;
}

/** Every file the build writes, with its modification time (the build's commit record aside: always written). */
function builtFiles(): Map<string, number> {
  const files = new Map<string, number>();
  for (const dir of ['dist', 'web/dist'])
    for (const entry of fs.readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })) {
      const file = path.join(entry.parentPath, entry.name);
      if (entry.isFile() && file !== path.join(root, 'dist/build-info.json'))
        files.set(file, fs.statSync(file).mtimeMs);
    }
  return files;
}

describe('the build', () => {
  beforeAll(async () => {
    await setUp('scripts/build.sh');
  });

  it('runs no step on a second start with nothing changed', async () => {
    const before = builtFiles();
    const printed = await setUp('scripts/setup.sh');
    expect(printed).toMatch(/^\[setup 1\/5\] npm dependencies: up to date/m);
    expect(printed).toMatch(/^\[setup 2\/5\] .*: up to date/m);
    expect(printed).toMatch(/^\[setup 3\/5\] TypeScript: up to date/m);
    expect(printed).toMatch(/^\[setup 4\/5\] workflow bundle: up to date/m);
    expect(printed).toMatch(/^\[setup 5\/5\] dashboard: up to date/m);
    expect(builtFiles()).toEqual(before);
  });

  it('builds again what changed, and removes the output of a source that is gone', async () => {
    const source = path.join(root, 'test/support', `start-test-${process.pid}.ts`);
    const output = path.join(root, 'dist/test/support', `start-test-${process.pid}.js`);
    fs.writeFileSync(source, 'export const addedByStartTest = 1;\n');
    try {
      const built = await setUp('scripts/build.sh');
      expect(built).toContain('TypeScript: building');
      expect(fs.readFileSync(output, 'utf8')).toContain('addedByStartTest');
    } finally {
      fs.rmSync(source, { force: true });
    }
    expect(await setUp('scripts/build.sh')).toContain('TypeScript: building');
    expect(fs.existsSync(output)).toBe(false);
    // An output changed by hand is not trusted: built again.
    fs.appendFileSync(path.join(root, 'dist/workflow-bundle.js'), '\n// changed\n');
    const again = await setUp('scripts/build.sh');
    expect(again).toContain('TypeScript: up to date');
    expect(again).toContain('workflow bundle: building');
    expect(fs.readFileSync(path.join(root, 'dist/workflow-bundle.js'), 'utf8')).not.toContain('// changed');
  });
});

describe('a port already taken', () => {
  let dataDir: string;
  let holder: net.Server;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhooks-ports-'));
  });
  afterEach(async () => {
    await new Promise((resolve) => holder.close(resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(['PORT', 'RECEIVER_METRICS_PORT', 'EMBEDDED_TEMPORAL_UI_PORT'])(
    'in %s is named, with what holds it, before anything is started',
    async (setting) => {
      const names = ['PORT', 'RECEIVER_METRICS_PORT', 'WORKER_METRICS_PORT', 'SDK_METRICS_PORT'];
      const ports = await freePorts(names.length + 2);
      const { TEMPORAL_ADDRESS: _t, MONGODB_URI: _m, ...rest } = process.env;
      const env: NodeJS.ProcessEnv = {
        ...rest,
        DATA_DIR: dataDir,
        ...Object.fromEntries(names.map((name, i) => [name, String(ports[i])])),
        EMBEDDED_TEMPORAL_PORT: String(ports[names.length]),
        EMBEDDED_TEMPORAL_UI_PORT: String(ports[names.length + 1]),
      };
      const taken = Number(env[setting]);
      holder = net.createServer();
      await new Promise<void>((resolve) => holder.listen(taken, '127.0.0.1', resolve));
      const log = path.join(dataDir, 'launcher.log');
      const launcher = startProcess('embedded', env, log);
      expect(await exited(launcher)).toBe(1);
      const printed = fs.readFileSync(log, 'utf8');
      expect(printed).toContain(`${setting}: port ${taken} (`);
      expect(printed).toContain(`is in use by pid ${process.pid} (`);
      expect(printed).toContain(`set ${setting} to a free port`);
      // Nothing was started: no server's pid file, database or log folder (only the kept secrets,
      // which reading the settings makes).
      const made = fs.readdirSync(dataDir).filter((f) => !['admin-token', 'secrets.key', 'web-ui-key'].includes(f));
      expect(made).toEqual(['launcher.log']);
    },
  );
});
