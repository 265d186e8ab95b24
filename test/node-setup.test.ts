/**
 * The Node the README's commands run on (scripts/node.sh): the version in .nvmrc, the major the image
 * ships, brought from the npm registry on a machine whose own Node is older.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.join(__dirname, '..');
const run = promisify(execFile);
let wanted: string;
beforeAll(async () => {
  wanted = (await readFile(path.join(root, '.nvmrc'), 'utf8')).trim();
});

it('runs these tests on the Node of .nvmrc', () => {
  expect(process.versions.node).toBe(wanted);
});

it("ships the image on the same major as .nvmrc, and allows no older Node in package.json's engines", async () => {
  const major = wanted.split('.')[0];
  const dockerfile = await readFile(path.join(root, 'Dockerfile'), 'utf8');
  const bases = [...dockerfile.matchAll(/^FROM node:(\d+)/gm)].map((m) => m[1]);
  expect(bases.length).toBeGreaterThan(0);
  expect(new Set(bases)).toEqual(new Set([major]));
  const { engines } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
  expect(engines.node).toBe('>=22.12.0');
});

describe('on a machine whose Node is 20', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'node-setup-'));
    // The machine's `node`: answers its version as 20.20.2 (npm itself still runs, on this Node).
    const shim = path.join(dir, 'shim');
    await run('mkdir', [shim]);
    await writeFile(
      path.join(shim, 'node'),
      `#!/bin/sh\n[ "$1" = "-p" ] && [ "$2" = "process.versions.node" ] && { echo 20.20.2; exit 0; }\n` +
        `exec "${process.execPath}" "$@"\n`,
    );
    await chmod(path.join(shim, 'node'), 0o755);
    env = { ...process.env, PATH: `${shim}:${process.env.PATH}`, WEBHOOKS_BIN_CACHE: path.join(dir, 'cache') };
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const setUp = () => run(path.join(root, 'scripts/node.sh'), [], { env, maxBuffer: 1 << 20 });

  it('brings the Node of .nvmrc from the npm registry into the cache, once, and says so', async () => {
    const first = await setUp();
    const bin = /^NODE_BIN=(.*)$/m.exec(first.stdout)?.[1];
    expect(bin).toBe(path.join(dir, 'cache', `node-v${wanted}-linux-${process.arch}`, 'bin', 'node'));
    expect(first.stderr).toContain(`Node 20.20.2 here is not the supported ${wanted.split('.')[0]}`);
    expect((await run(bin!, ['-v'])).stdout.trim()).toBe(`v${wanted}`);

    const again = await setUp();
    expect(again.stdout).toContain(`NODE_BIN=${bin}`);
    expect(again.stderr).not.toContain('fetching');
  });
});
